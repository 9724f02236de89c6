"""The GM's words: moves, events, fights and situations told in plain sentences, in English or French."""
