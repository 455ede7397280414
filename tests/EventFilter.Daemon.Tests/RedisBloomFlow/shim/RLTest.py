"""Our own stand-in for the parts of RLTest that RedisBloom's flow tests use, written for run_flow.py.

RLTest itself is not installed here. Its assertions record a failure and let the test go on, as RLTest's do; a reply
error that a test does not expect ends the test, as it does there. Everything a run needs to know about eventfilterd
(the socket, how to restart it, the listed differences) comes from run_flow.py through `run`.
"""

import inspect

import redis
from redis import ResponseError


class StepNotApplicable(BaseException):
    """A command the running test's entry in run_flow.py lists as not applicable: the test ends there."""


class SkipTest(BaseException):
    """env.skip(): the test file itself skips the test."""


class _Run:
    """The running test's state, set by run_flow.py before each test."""

    def __init__(self):
        self.socket = None
        self.reload = None
        self.begin(None)

    def begin(self, entry):
        self.entry = entry
        self.failures = []
        self.forgiven = []

    def fail(self, message):
        frame = next((f for f in inspect.stack() if f.filename.endswith("test_overall.py")), None)
        where = f"test_overall.py:{frame.lineno}: " if frame else ""
        self.failures.append(where + message)


run = _Run()


class Defaults:
    decode_responses = False


def _words(args):
    """The command as the server sees it: redis-py splits a first argument that holds spaces."""
    first = args[0].split() if isinstance(args[0], str) else [args[0]]
    return [str(w).lower() if i == 0 else w for i, w in enumerate(first + list(args[1:]))]


class Env:
    def __init__(self, decodeResponses=False, **_):
        self._decode = decodeResponses
        self._connect()

    def _connect(self):
        self.con = redis.Redis(unix_socket_path=run.socket, decode_responses=self._decode)

    # Commands.
    def cmd(self, *args):
        words = _words(args)
        entry = run.entry
        if entry is not None and (why := entry.step_not_applicable(words)) is not None:
            raise StepNotApplicable(f"stops at {words[0].upper()}: {why}")
        try:
            reply = self.con.execute_command(*args)
        except (ResponseError, redis.ConnectionError) as error:
            forgiven = entry.forgive(words, error) if entry is not None else error
            if forgiven is error:
                raise
            run.forgiven.append(f"{words[0].upper()}: {error}")
            if isinstance(forgiven, BaseException):
                raise forgiven from None
            return forgiven
        return entry.rewrite(words, reply) if entry is not None else reply

    execute_command = cmd

    def getConnection(self):
        return self.con

    def expect(self, *args):
        return _Expect(self, args)

    def dumpAndReload(self):
        # eventfilterd persists every filter: a restart is the honest equivalent of Redis's DEBUG RELOAD.
        self.con.close()
        run.reload()
        self._connect()

    def skip(self):
        raise SkipTest("the test skips itself (env.skip())")

    def skipOnVersionSmaller(self, _version):
        pass

    # Assertions: each records a failure and returns, as RLTest's do.
    def _check(self, ok, message):
        if not ok:
            run.fail(message)

    def assertEqual(self, first, second, message=""):
        self._check(first == second, f"expected {first!r} == {second!r} {message}".rstrip())

    def assertNotEqual(self, first, second, message=""):
        self._check(first != second, f"expected {first!r} != {second!r} {message}".rstrip())

    def assertOk(self, value, message=""):
        self._check(value in ("OK", b"OK", True), f"expected OK, got {value!r} {message}".rstrip())

    def assertTrue(self, value, message=""):
        self._check(bool(value), f"expected a true value, got {value!r} {message}".rstrip())

    def assertFalse(self, value, message=""):
        self._check(not value, f"expected a false value, got {value!r} {message}".rstrip())

    def assertLess(self, first, second, message=""):
        self._check(first < second, f"expected {first!r} < {second!r} {message}".rstrip())

    def assertLessEqual(self, first, second, message=""):
        self._check(first <= second, f"expected {first!r} <= {second!r} {message}".rstrip())

    def assertGreater(self, first, second, message=""):
        self._check(first > second, f"expected {first!r} > {second!r} {message}".rstrip())

    def assertGreaterEqual(self, first, second, message=""):
        self._check(first >= second, f"expected {first!r} >= {second!r} {message}".rstrip())

    def assertContains(self, value, container, message=""):
        self._check(value in container, f"expected {value!r} in {container!r} {message}".rstrip())

    def assertIsNone(self, value, message=""):
        self._check(value is None, f"expected None, got {value!r} {message}".rstrip())

    def assertIsNotNone(self, value, message=""):
        self._check(value is not None, f"expected a value, got None {message}".rstrip())

    def assertRaises(self, exception, function, *args, **kwargs):
        try:
            function(*args, **kwargs)
        except exception:
            return
        run.fail(f"expected {exception.__name__} from {args!r}")

    def assertResponseError(self, msg=None, contained=None):
        return _ExpectError(contained)


class _ExpectError:
    """`with env.assertResponseError():` the block must end with a reply error; any other exception goes on up."""

    def __init__(self, contained):
        self._contained = contained

    def __enter__(self):
        return self

    def __exit__(self, kind, error, _trace):
        if kind is None:
            run.fail("expected a reply error, the block ended without one")
            return False
        if issubclass(kind, ResponseError):
            if self._contained is not None and self._contained not in str(error):
                run.fail(f"expected an error containing {self._contained!r}, got {error}")
            return True
        return False


class _Expect:
    """env.expect(command...): runs it at once and keeps the reply or the reply error for the checks chained after it."""

    def __init__(self, env, args):
        self._env = env
        self.error_reply = None
        self.reply = None
        try:
            self.reply = env.cmd(*args)
        except ResponseError as error:
            self.error_reply = error

    def error(self):
        if self.error_reply is None:
            run.fail(f"expected a reply error, got {self.reply!r}")
        return self

    raiseError = error

    def noError(self):
        if self.error_reply is not None:
            run.fail(f"expected no error, got {self.error_reply}")
        return self

    def contains(self, text):
        got = str(self.error_reply) if self.error_reply is not None else self.reply
        if got is None or text not in got:
            run.fail(f"expected {text!r} in {got!r}")
        return self

    def equal(self, value):
        if self.error_reply is not None or self.reply != value:
            run.fail(f"expected {value!r}, got {self.error_reply or self.reply!r}")
        return self

    def ok(self):
        return self.equal("OK" if self._env._decode else b"OK")
