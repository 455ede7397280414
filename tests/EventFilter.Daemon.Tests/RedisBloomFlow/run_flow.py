"""Runs RedisBloom's own Bloom flow tests (tests/flow/test_overall.py) against eventfilterd.

    /usr/bin/python3 run_flow.py --archive RedisBloom-2.4.23.tar.gz --socket DATA/eventfilterd.sock

The test file (and common.py, which it imports) is read from RedisBloom's source archive into a temporary directory at
run time; none of it is kept in this repository. shim/ stands in for RLTest; redis-py (Debian's python3-redis) talks
to the daemon. Each test of the file is listed as passed, differs (a documented difference forgiven: docs/daemon.md,
"RedisBloom's flow tests"), failed, or not applicable, the last only by an entry of NOT_APPLICABLE below. Where a test
calls env.dumpAndReload() the daemon is restarted: this script prints "@@reload" and waits for a line on stdin, which
RedisBloomFlowTests sends once a new daemon listens on the same data directory. Exit code 0 when nothing failed.
"""

import argparse
import contextlib
import io
import inspect
import os
import random
import re
import sys
import tarfile
import tempfile
import time
import traceback

import redis
from redis import ResponseError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim"))
import RLTest  # noqa: E402 - our shim, from shim/ beside this file

FLOW = "tests/flow/"
SEED = 2601

# Tests that do not apply to a Bloom filter service, each with its reason.
NOT_APPLICABLE = {
    "test_mem_usage": "MEMORY USAGE (Redis's allocator accounting) and BF.DEBUG (RedisBloom's links) are not served",
    "test_debug": "BF.DEBUG prints RedisBloom's internal links; eventfilterd does not serve it",
    "test_load_error_handling": "RESTORE of a Redis DUMP payload: Redis's key serialisation is not served",
    "test_rdb_load_guards": "RESTORE of a Redis DUMP payload: Redis's key serialisation is not served",
    "test_insufficient_memory": "RedisBloom's file skips it itself (env.skip()); it checks RedisBloom's allocator message",
    "test_arbitrary_offset": "RedisBloom's file skips it itself (env.skip()); its chunk is RedisBloom's own dump format",
}

# Commands eventfilterd does not serve, met late in a test that otherwise applies: the test runs up to the command.
NO_OTHER_TYPES = "eventfilterd holds only Bloom filters, so no key of another type can be made"
STEPS_NOT_APPLICABLE = {
    "test_validation": {"set": NO_OTHER_TYPES},
    "test_card": {"set": NO_OTHER_TYPES},
    "test_insert": {"bf.debug": "BF.DEBUG prints RedisBloom's internal links; eventfilterd does not serve it"},
}


class ForgivenSize(int):
    """BF.INFO's Size, which counts our layer files' bytes: equal to any integer RedisBloom's layout gives."""

    def __eq__(self, other):
        return isinstance(other, int)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = int.__hash__


def forgive_size(words, reply):
    if words[0] != "bf.info" or not isinstance(reply, list):
        return reply
    if len(words) == 3 and str(words[2]).lower() == "size":
        return [ForgivenSize(reply[0])]
    labels = [label.decode() if isinstance(label, bytes) else label for label in reply[0::2]]
    if "Size" in labels:
        reply = list(reply)
        at = 2 * labels.index("Size") + 1
        reply[at] = ForgivenSize(reply[at])
    return reply


def bad_data(error):
    """Our refusals name what is wrong after RedisBloom's words; the test compares the words alone."""
    return ResponseError("received bad data") if str(error).startswith("received bad data: ") else error


def bad_data_or_too_big(words, error):
    if isinstance(error, redis.ConnectionError) and words[0] == "bf.loadchunk" and len(words[-1]) > 1 << 20:
        return ResponseError("received bad data")
    return bad_data(error)


def end_of_dump(words, error):
    if words[0] == "bf.scandump" and str(error).startswith("invalid iterator"):
        return [0, b""]
    return error


def layers_by_false_positives(failure, con):
    """
    test_expansion expects RedisBloom's 23 layers of 4 items for exp1 after 100 adds: 92 items at most, so at least 8
    adds it answered 0 (false positives). Forgiven when ours are exactly the layers our own BF.CARD needs, and no fewer.
    """
    match = re.fullmatch(r"test_overall.py:255: expected 23 == (\d+)", failure)
    if match is None:
        return False
    card = int(con.execute_command("BF.CARD", "exp1"))
    return card <= 100 and int(match[1]) == max(1, -(-card // 4)) and int(match[1]) >= 23


SIZE = "BF.INFO's Size counts our layer files' bytes, not RedisBloom's bit arrays"
BAD_DATA = "a refused chunk's error names what is wrong after 'received bad data: '"
ITERATOR = "an iterator BF.SCANDUMP did not answer is refused with ERR invalid iterator"


class Difference:
    """
    A documented difference (docs/daemon.md, "RedisBloom's flow tests"): why, and what it forgives. A reply rewrite or
    an error rewrite touches only what the reason covers, so the rest is still checked; a failure check forgives one
    assertion's failure only after checking that the reason explains it.
    """

    def __init__(self, why, reply=None, error=None, failure=None):
        self.why, self.reply, self.error, self.failure = why, reply, error, failure


DIFFERENCES = {
    "test_expansion": Difference(
        "item counts differ only through false positives: RedisBloom's tiny layers turned away at least 8 of the 100 adds",
        failure=layers_by_false_positives,
    ),
    "test_info": Difference(SIZE, reply=forgive_size),
    "test_info_size": Difference(SIZE, reply=forgive_size),
    "test_nonscaling_err": Difference(SIZE, reply=forgive_size),
    "test_issue178": Difference(SIZE, reply=forgive_size),
    "test_scandump_invalid_header": Difference(BAD_DATA, error=lambda words, error: bad_data(error)),
    "test_scandump_load_small": Difference(BAD_DATA, error=lambda words, error: bad_data(error)),
    "test_scandump_load_big": Difference(
        BAD_DATA + "; a chunk over the 1 MiB bulk limit ends the connection (Redis's protocol error)", error=bad_data_or_too_big
    ),
    "test_scandump_scan_small": Difference(ITERATOR, error=end_of_dump),
    "test_scandump_scan_big": Difference(ITERATOR, error=end_of_dump),
}


class Entry:
    """What the shim asks about the running test: which steps do not apply, and what a listed difference forgives."""

    def __init__(self, name):
        self.steps = STEPS_NOT_APPLICABLE.get(name, {})
        self.difference = DIFFERENCES.get(name, Difference(None))

    def step_not_applicable(self, words):
        return self.steps.get(words[0])

    def rewrite(self, words, reply):
        if self.difference.reply is None:
            return reply
        rewritten = self.difference.reply(words, reply)
        if rewritten is not reply:
            RLTest.run.forgiven.append(f"{words[0].upper()}: {reply!r}")
        return rewritten

    def forgive(self, words, error):
        return error if self.difference.error is None else self.difference.error(words, error)


def extract(archive, into):
    """Reads test_overall.py and common.py out of the archive, whatever its top folder is called."""
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            name = member.name.split("/", 1)[-1]
            if name in (FLOW + "test_overall.py", FLOW + "common.py"):
                with open(os.path.join(into, os.path.basename(name)), "wb") as out:
                    out.write(tar.extractfile(member).read())
    missing = [n for n in ("test_overall.py", "common.py") if not os.path.exists(os.path.join(into, n))]
    if missing:
        sys.exit(f"run_flow.py: {archive} has no {FLOW}{missing[0]}")


def reload_daemon():
    print("@@reload", file=sys.__stdout__, flush=True)
    if not sys.stdin.readline():
        raise RuntimeError("no one restarted the daemon (stdin closed)")


def run_test(instance, name):
    RLTest.run.begin(Entry(name))
    random.seed(SEED)
    stopped = None
    try:
        # The tests' own progress prints would break up the list; they are dropped.
        with contextlib.redirect_stdout(io.StringIO()):
            result = getattr(instance, name)()
            if inspect.isgenerator(result):
                for _ in result:
                    pass
    except RLTest.StepNotApplicable as step:
        stopped = str(step)
    except RLTest.SkipTest as skip:
        RLTest.run.fail(f"{skip}, but it is not listed as not applicable")
    except Exception as error:  # noqa: BLE001 - any error ends the test as failed, with where it came from
        where = next((f for f in reversed(traceback.extract_tb(error.__traceback__)) if f.filename.endswith("test_overall.py")), None)
        RLTest.run.failures.append(f"{'test_overall.py:%d: ' % where.lineno if where else ''}{type(error).__name__}: {error}")
    difference = RLTest.run.entry.difference
    failures = RLTest.run.failures
    if difference.failure is not None:
        RLTest.run.forgiven += [f for f in failures if difference.failure(f, instance.env.con)]
        failures = [f for f in failures if f not in RLTest.run.forgiven]
    if failures:
        return "FAILED", "; ".join(failures)
    if difference.why is not None:
        if not RLTest.run.forgiven:
            return "FAILED", f"listed as differing ({difference.why}), but the difference did not arise: update the list"
        return "DIFFERS", f"{difference.why} ({len(RLTest.run.forgiven)} forgiven)"
    return "PASSED", stopped or ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", required=True)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--only", help="run only the tests whose names contain this")
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="redisbloom-flow-") as temp:
        extract(options.archive, temp)
        sys.path.insert(0, temp)
        RLTest.run.socket = options.socket
        RLTest.run.reload = reload_daemon
        import test_overall

        counts = {}
        for cls in [c for _, c in inspect.getmembers(test_overall, inspect.isclass) if c.__module__ == "test_overall"]:
            names = [n for n in vars(cls) if n.startswith("test") and callable(getattr(cls, n))]
            instance = cls()
            for name in names:
                if options.only and options.only not in name:
                    continue
                if name in NOT_APPLICABLE:
                    outcome, detail = "N/A", NOT_APPLICABLE[name]
                else:
                    started = time.monotonic()
                    outcome, detail = run_test(instance, name)
                    detail = f"({time.monotonic() - started:.1f} s) {detail}".rstrip()
                counts[outcome] = counts.get(outcome, 0) + 1
                print(f"{outcome:8} {cls.__name__}.{name}: {detail}", flush=True)

    print(
        f"RedisBloom flow tests: {counts.get('PASSED', 0)} passed, {counts.get('DIFFERS', 0)} differ as documented, "
        f"{counts.get('FAILED', 0)} failed, {counts.get('N/A', 0)} not applicable",
        flush=True,
    )
    return 1 if counts.get("FAILED") else 0


if __name__ == "__main__":
    sys.exit(main())
