"""The dice-pool system of the Haru'Rak'Zall text (reference: docs/rules/dice-pool.md; docs/dicepool.md)."""
