"""Playing at the table: the interactive loop where the GM rolls or the tool rolls, and the NPCs are advised."""
