namespace Folio.Server.Tests.Histories;

/// <summary>
/// The invocations and completions of a register's steps in time order, as a doubly linked list the linearizability
/// search lifts steps out of and puts back in, last out first in. A step without a deadline has no completion.
/// At equal times an invocation comes first, so operations that touch are taken as concurrent.
/// </summary>
internal sealed class EventList
{
    private const int End = -1;
    private readonly int[] _next;
    private readonly int[] _previous;
    private readonly int[] _step;
    private readonly bool[] _completion;
    private readonly int[] _invocationOf;
    private readonly int[] _completionOf;
    private readonly int _head;

    public EventList(IReadOnlyList<RegisterStep> steps)
    {
        var events = new List<(long Time, int Order, int Step)>(steps.Count * 2);
        for (int i = 0; i < steps.Count; i++)
        {
            events.Add((steps[i].Call, 0, i));
            if (steps[i].Return != long.MaxValue)
                events.Add((steps[i].Return, 1, i));
        }

        events.Sort();
        _head = events.Count;
        _next = new int[events.Count + 1];
        _previous = new int[events.Count + 1];
        _step = new int[events.Count];
        _completion = new bool[events.Count];
        _invocationOf = new int[steps.Count];
        _completionOf = new int[steps.Count];
        Array.Fill(_completionOf, End);
        int last = _head;
        for (int e = 0; e < events.Count; e++)
        {
            (_, int order, int step) = events[e];
            _step[e] = step;
            _completion[e] = order == 1;
            if (order == 1)
                _completionOf[step] = e;
            else
                _invocationOf[step] = e;
            _next[last] = e;
            _previous[e] = last;
            last = e;
        }

        _next[last] = End;
    }

    /// <summary>The first event still in the list, or -1.</summary>
    public int First => _next[_head];

    public int Next(int entry) => _next[entry];

    public int StepOf(int entry) => _step[entry];

    public bool IsCompletion(int entry) => _completion[entry];

    public int InvocationOf(int step) => _invocationOf[step];

    /// <summary>Takes a step's invocation and completion out of the list.</summary>
    public void Lift(int step)
    {
        Remove(_invocationOf[step]);
        if (_completionOf[step] != End)
            Remove(_completionOf[step]);
    }

    /// <summary>Puts back the step lifted last.</summary>
    public void Unlift(int step)
    {
        if (_completionOf[step] != End)
            Restore(_completionOf[step]);
        Restore(_invocationOf[step]);
    }

    private void Remove(int entry)
    {
        int next = _next[entry];
        _next[_previous[entry]] = next;
        if (next != End)
            _previous[next] = _previous[entry];
    }

    private void Restore(int entry)
    {
        int next = _next[entry];
        _next[_previous[entry]] = entry;
        if (next != End)
            _previous[next] = entry;
    }
}
