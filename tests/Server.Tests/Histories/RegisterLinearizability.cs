namespace Folio.Server.Tests.Histories;

/// <summary>The verdict on one register's history.</summary>
/// <param name="Linearizable">True when some order of the steps, each at an instant inside its interval, explains every answer.</param>
/// <param name="Decided">False when the search ran out of its budget before finding an order or ruling every one out.</param>
/// <param name="Longest">The most steps the search managed to order.</param>
/// <param name="Stuck">Where the deepest attempt stopped: a completed step that no order could place in time, or null.</param>
/// <param name="StuckState">The register's value at that point.</param>
public sealed record RegisterVerdict(bool Linearizable, bool Decided, int Longest, RegisterStep? Stuck, int StuckState);

/// <summary>
/// The Wing–Gong search with Lowe's memoization (as in Knossos and Porcupine) for one compare-and-set register.
/// Invocations and completions form one time-ordered list; the search repeatedly takes a step whose invocation comes
/// before every remaining completion and that the current value allows, and backtracks when it meets the completion of
/// a step it could not take. (set of steps taken, value) pairs already explored are not explored again. A step of
/// unknown outcome may be taken like any other, or dropped at its deadline as never having happened.
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
        var list = new EventList(steps);
        int words = (steps.Count + 63) / 64;
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
            if (++moves > budget)
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

        return new RegisterVerdict(true, true, steps.Count, null, state);
    }

    private static bool TryTake(ulong[] taken, int step, int state, HashSet<Explored> seen)
    {
        taken[step >> 6] |= 1UL << (step & 63);
        if (seen.Add(new Explored((ulong[])taken.Clone(), state)))
            return true;
        Clear(taken, step);
        return false;
    }

    private static void Clear(ulong[] taken, int step) => taken[step >> 6] &= ~(1UL << (step & 63));

    /// <summary>A search position: which steps are taken and the value they leave.</summary>
    private sealed class Explored : IEquatable<Explored>
    {
        private readonly ulong[] _taken;
        private readonly int _state;
        private readonly int _hash;

        public Explored(ulong[] taken, int state)
        {
            _taken = taken;
            _state = state;
            var hash = new HashCode();
            hash.Add(state);
            foreach (ulong word in taken)
                hash.Add(word);
            _hash = hash.ToHashCode();
        }

        public bool Equals(Explored? other) => other is not null && other._state == _state && other._taken.AsSpan().SequenceEqual(_taken);

        public override bool Equals(object? obj) => Equals(obj as Explored);

        public override int GetHashCode() => _hash;
    }
}
