"""Numba kernels over plain numpy arrays: the rules of Dominion as a resumable state machine.

Nothing here imports gymnasium, pettingzoo or torch.

    jit          the JIT policy (the only place that calls numba)
    layout       state layout, action space, decision kinds, every encoding
    zones        per-game RNG, draw / shuffle / gain, scoring
    frames       the frame stack and the pending-decision record
    machine      the turn, game setup, the driver (advance / resolve)
    effects      card effects, dispatched on effect id (generated from the set modules' rows)
    base_cards, intrigue_cards
                 each card's effect, the decisions it asks and the bots' default play for
                 them, declared in one ``CardCode`` row per card (``card_code``)
    attacks      the reaction window and the walk over an Attack's victims
    mask         the action mask
    observation  the observation layout and writer
    bots         compiled scripted and random bots (values cards by ``bot_values``)
    batch        prange kernels over N games (reset/step, bot games, expert actions, scores)
    kingdoms     recommended sets, kingdom validation, random draws (only cards that play)
    config       the one builder of a batch's settings (``make_config``) and deals (``make_setup``)
    audit        invariants checked over millions of random games
"""
