"""The layout environment (Gymnasium-style) and the generated tasks it plays.

::

    from assistant.env import LayoutEnv
    env = LayoutEnv("poster")
    obs, info = env.reset(seed=0)
"""

from assistant.env.layout_env import LayoutEnv, RewardConfig, observation_text

__all__ = ["LayoutEnv", "RewardConfig", "observation_text"]
