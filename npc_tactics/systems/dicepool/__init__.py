"""dicepool: everything of this rules system (rules engine, encoder, scripted agents, words), one package."""
