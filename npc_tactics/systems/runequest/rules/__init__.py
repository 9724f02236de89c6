"""RuneQuest: Roleplaying in Glorantha (RQG) combat: strike ranks, success levels, parry/dodge
tables,
hit locations, spirit and Rune magic, First Aid. Reference: docs/rules/runequest-glorantha.md."""
