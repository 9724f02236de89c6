"""End-to-end smoke tests: every command on the fake system."""
