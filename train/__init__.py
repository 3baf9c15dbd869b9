"""Training: PPO against bots, self-play with an opponent pool, evaluation, ratings.

Empty until the environment adapters land (issue: Gymnasium/PettingZoo/SB3 interfaces); the
folder is here so the layout is the one asked for.
"""
