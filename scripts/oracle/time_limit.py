"""A time limit on a call, by a timer signal: the generator's rod simplification (structured.py,
CPU time) and the runner's generation of one model (run.py, wall time), one inside the other.
Only for the main thread of a process, where Python delivers signals."""
import signal

_SIGNAL_OF = {signal.ITIMER_REAL: signal.SIGALRM, signal.ITIMER_PROF: signal.SIGPROF}


class TimeLimitExceeded(Exception):
    pass


def within(seconds, function, timer=signal.ITIMER_REAL):
    """function(), or TimeLimitExceeded after `seconds` of the `timer`'s time: ITIMER_REAL wall
    time, ITIMER_PROF this process's CPU time (the same on a loaded machine). Each call expires
    by an exception class of its own, so that an outer limit passes through an inner call and
    its handler (the rod's trigsimp keeps r where its own limit expires, not the runner's)."""
    class Expired(Exception):
        pass

    def expire(number, frame):
        raise Expired()

    signum = _SIGNAL_OF[timer]
    previous = signal.signal(signum, expire)
    signal.setitimer(timer, seconds)
    try:
        try:
            return function()
        finally:
            signal.setitimer(timer, 0)
    except Expired:  # also where the timer fires just as function returns
        raise TimeLimitExceeded() from None
    finally:
        signal.signal(signum, previous)
