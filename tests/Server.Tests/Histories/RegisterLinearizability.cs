namespace Folio.Server.Tests.Histories;

/// <summary>
/// The Wing–Gong search with Lowe's memoization (as in Knossos and Porcupine) for one compare-and-set register.
/// Invocations and completions form one time-ordered list; the search repeatedly takes a step whose invocation comes
/// before every remaining completion and that the current value allows, and backtracks when it meets the completion of
/// a step it could not take. (set of steps taken, value) pairs already explored are not explored again. A step of
/// unknown outcome may be taken like any other, or dropped at its deadline as never having happened.
/// Steps are numbered in invocation order, so a set of steps taken is nearly always "all before some step, and a few
/// after it": it is remembered as that step and the few words of bits after it, not as one bit per step of the
/// history, which on histories of tens of thousands of steps would take gigabytes.
/// </summary>
public static class RegisterLinearizability
{
    /// <summary>Searches for a linearization of <paramref name="steps"/>.</summary>
    /// <param name="steps">The register's steps, in any order.</param>
    /// <param name="initial">The value before the first step.</param>
    /// <param name="budget">How many search moves to make before giving up undecided.</param>
    /// <returns>The verdict.</returns>
    public static RegisterVerdict Check(IReadOnlyList<RegisterStep> steps, int initial, long budget = 50_000_000)
    {
        var ordered = new RegisterStep[steps.Count];
        for (int i = 0; i < ordered.Length; i++)
            ordered[i] = steps[i];
        Array.Sort(ordered, (a, b) => a.Call.CompareTo(b.Call));
        return Search(ordered, initial, budget);
    }

    private static RegisterVerdict Search(RegisterStep[] steps, int initial, long budget)
    {
        var list = new EventList(steps);
        int words = (steps.Length + 63) / 64;
        var taken = new ulong[words];
        var seen = new HashSet<Explored>();
        var stack = new Stack<(int Step, int Before, bool Dropped)>();
        int required = 0;
        foreach (var step in steps)
        {
            if (!step.Optional)
                required++;
        }

        int state = initial;
        int entry = list.First;
        int longest = 0;
        int stuckDepth = -1;
        RegisterStep? stuck = null;
        int stuckState = initial;
        long moves = 0;
        while (required > 0)
        {
            if (++moves > budget || seen.Count > MaxExplored)
                return new RegisterVerdict(false, false, longest, stuck, stuckState);
            if (entry >= 0)
            {
                int s = list.StepOf(entry);
                RegisterStep step = steps[s];
                if (!list.IsCompletion(entry))
                {
                    if (step.TryApply(state, out int after) && TryTake(taken, s, after, seen))
                    {
                        stack.Push((s, state, false));
                        state = after;
                        list.Lift(s);
                        if (!step.Optional)
                            required--;
                        longest = Math.Max(longest, stack.Count);
                        entry = list.First;
                    }
                    else
                    {
                        entry = list.Next(entry);
                    }

                    continue;
                }

                // The completion of a step not taken: it happened by now, or (if unknown) never did.
                if (step.Optional && TryTake(taken, s, state, seen))
                {
                    stack.Push((s, state, true));
                    list.Lift(s);
                    entry = list.First;
                    continue;
                }

                if (!step.Optional && stack.Count > stuckDepth)
                {
                    stuckDepth = stack.Count;
                    stuck = step;
                    stuckState = state;
                }
            }

            // Every choice at this depth failed: undo the last step taken and try the next candidate after it; a
            // dropped step was the last choice at its depth, so undoing it means undoing the one before too.
            while (true)
            {
                if (stack.Count == 0)
                    return new RegisterVerdict(false, true, longest, stuck, stuckState);
                (int top, int before, bool dropped) = stack.Pop();
                Clear(taken, top);
                state = before;
                list.Unlift(top);
                if (!steps[top].Optional)
                    required++;
                if (!dropped)
                {
                    entry = list.Next(list.InvocationOf(top));
                    break;
                }
            }
        }

        return new RegisterVerdict(true, true, steps.Length, null, state);
    }

    /// <summary>Positions remembered at most before giving up undecided, so a pathological history cannot exhaust memory.</summary>
    private const int MaxExplored = 4_000_000;

    private static bool TryTake(ulong[] taken, int step, int state, HashSet<Explored> seen)
    {
        taken[step >> 6] |= 1UL << (step & 63);
        if (seen.Add(Explored.Of(taken, state)))
            return true;
        Clear(taken, step);
        return false;
    }

    private static void Clear(ulong[] taken, int step) => taken[step >> 6] &= ~(1UL << (step & 63));

    /// <summary>
    /// A search position: which steps are taken (every word of bits before <c>_first</c> full, then <c>_taken</c>,
    /// then nothing) and the value they leave.
    /// </summary>
    private sealed class Explored : IEquatable<Explored>
    {
        private readonly int _first;
        private readonly ulong[] _taken;
        private readonly int _state;
        private readonly int _hash;

        private Explored(int first, ulong[] taken, int state)
        {
            _first = first;
            _taken = taken;
            _state = state;
            var hash = new HashCode();
            hash.Add(state);
            hash.Add(first);
            foreach (ulong word in taken)
                hash.Add(word);
            _hash = hash.ToHashCode();
        }

        public static Explored Of(ulong[] taken, int state)
        {
            int first = 0;
            while (first < taken.Length && taken[first] == ulong.MaxValue)
                first++;
            int end = taken.Length;
            while (end > first && taken[end - 1] == 0)
                end--;
            return new Explored(first, taken[first..end], state);
        }

        public bool Equals(Explored? other) =>
            other is not null && other._state == _state && other._first == _first && other._taken.AsSpan().SequenceEqual(_taken);

        public override bool Equals(object? obj) => Equals(obj as Explored);

        public override int GetHashCode() => _hash;
    }
}
