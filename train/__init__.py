"""Training: reinforcement learning on the batched environment.

    python -m train.maskable_ppo --steps 200000 --num-envs 256 --opponent "Big Money"

``maskable_ppo``: sb3-contrib's MaskablePPO against compiled bots on ``DominionVecEnv`` (one
VecGame, bots inside the compiled step), then the trained policy's win rate against the bot
with a 95% interval (``evaluate``); the model is saved as a .zip. Needs the ``train`` extra.

Self-play with an opponent pool and ratings are not here yet.
"""
