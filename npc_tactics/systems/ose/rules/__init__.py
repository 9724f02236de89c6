"""Old-School Essentials (B/X) combat: the rules engine of ose-bx.md (see docs/ose.md)."""
