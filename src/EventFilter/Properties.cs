using System.Runtime.CompilerServices;

// stackalloc'd scratch (key encoding, batch hashes) is always fully written before it is read,
// so zero-initialising it is wasted work on the hot path.
[module: SkipLocalsInit]
