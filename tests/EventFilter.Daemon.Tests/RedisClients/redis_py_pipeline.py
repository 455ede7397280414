"""redis-py's default pipeline (a MULTI/EXEC transaction) and its CLIENT parsers against eventfilterd, for RedisClientToolTests."""
import sys

import redis

r = redis.Redis(unix_socket_path=sys.argv[1])

pipe = r.pipeline()  # transaction=True: MULTI ... EXEC
pipe.execute_command("BF.ADD", "py-pipe", "a")
pipe.execute_command("BF.MADD", "py-pipe", "a", "b")
pipe.execute_command("BF.EXISTS", "py-pipe", "b")
assert pipe.execute() == [1, [0, 1], 1], "pipeline replies"

# A command refused at queuing: EXEC aborts, so nothing in the transaction ran.
pipe = r.pipeline()
pipe.execute_command("BF.ADD", "py-aborted", "a")
pipe.execute_command("NO.SUCH.COMMAND")
try:
    pipe.execute()
    raise AssertionError("an unknown command in a transaction must fail it")
except redis.exceptions.ResponseError:
    pass
assert r.exists("py-aborted") == 0, "an aborted transaction ran a command"

# An error at EXEC is that command's reply: redis-py raises it, and the others ran, as with Redis.
pipe = r.pipeline()
pipe.execute_command("BF.ADD", "py-partial", "a")
pipe.execute_command("BF.RESERVE", "py-partial", "0.01", "100")
try:
    pipe.execute()
    raise AssertionError("BF.RESERVE on an existing key must fail")
except redis.exceptions.ResponseError:
    pass
assert r.execute_command("BF.EXISTS", "py-partial", "a") == 1

info = r.client_info()
assert info["multi"] == -1 and "qbuf" in info and "tot-mem" in info, info
assert any(str(c["id"]) == str(info["id"]) for c in r.client_list()), "client_list"
print("redis-py: ok")
