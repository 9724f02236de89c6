"""The web service and its page: the HTTP API over suggest, odds, replay and encounters, with its limits."""
