"""The encounter builder: compose foes for a party to a target difficulty, measured by simulated odds."""
