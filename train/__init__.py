"""Training: reinforcement learning on the batched environment.

    python -m train.maskable_ppo --steps 200000 --num-envs 256 --opponent "Big Money"

``maskable_ppo``: sb3-contrib's MaskablePPO against compiled bots on ``DominionVecEnv`` (one
VecGame, bots inside the compiled step), then the trained policy's win rate against the bot
with a 95% interval (``evaluate``); the model is saved as a .zip. Needs the ``train`` extra.

What to expect (measured on 2 CPU cores, default hyperparameters, random kingdoms): against
Random the policy wins 100% of 1,000 games after 300k steps (about a minute). Against Big Money
win/loss alone gives a new policy nothing to learn from (it never wins, and drifts into long
games); ``--margin-reward 0.02`` (a score-margin bonus at each game's end) reached a 2.2% win
rate [1.6%, 2.9%] after 1M steps, and a curriculum (300k steps against Random, then ``--load``
and 600k against Big Money) 3.1% [2.2%, 4.4%]. Beating Big Money takes far longer training or
better features; that tuning is not done here.

Self-play with an opponent pool and ratings are not here yet.
"""
