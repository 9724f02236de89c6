"""The dice-pool system of the Haru'Rak'Zall text (reference: shared/rules/dice-pool.md; docs/dicepool.md)."""
