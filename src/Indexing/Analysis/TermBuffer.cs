namespace Folio.Indexing.Analysis;

/// <summary>
/// The term being analysed, as filters see it: a writable span with spare capacity (filters such as
/// ASCII folding may lengthen the term) and a scratch area of the same size.
/// </summary>
/// <remarks>
/// The analyzer owns the memory (stack or pooled); filters rewrite it in place so that a chain of
/// filters costs no allocation per token.
/// </remarks>
public ref struct TermBuffer
{
    private readonly Span<char> _space;
    private readonly Span<char> _scratch;
    private int _length;

    /// <summary>Creates a term buffer over caller-owned memory.</summary>
    /// <param name="space">Holds the term in its first <paramref name="length"/> characters; its length is the capacity.</param>
    /// <param name="scratch">Temporary space for filters; should be at least as long as <paramref name="space"/>.</param>
    /// <param name="length">The current term length.</param>
    public TermBuffer(Span<char> space, Span<char> scratch, int length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(length, space.Length);
        _space = space;
        _scratch = scratch;
        _length = length;
    }

    /// <summary>The current term length; setting it truncates or exposes characters already written to <see cref="Space"/>.</summary>
    public int Length
    {
        readonly get => _length;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, _space.Length);
            _length = value;
        }
    }

    /// <summary>The most characters the term can hold.</summary>
    public readonly int Capacity => _space.Length;

    /// <summary>The current term, writable in place.</summary>
    public readonly Span<char> Chars => _space[.._length];

    /// <summary>The whole term area, for filters that write a longer term before setting <see cref="Length"/>.</summary>
    public readonly Span<char> Space => _space;

    /// <summary>Temporary space a filter may use during its own call; its contents do not survive between filters.</summary>
    public readonly Span<char> Scratch => _scratch;
}
