"""Stand-in for RedisBloom's build helper (readies/paella), which the flow tests' common.py reads the platform from."""

import platform


class Platform:
    def __init__(self):
        self.os = platform.system().lower()
        self.arch = platform.machine()
        self.osnick = "debian"
