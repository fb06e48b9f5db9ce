namespace Folio.Indexing.Analysis;

/// <summary>Applies <see cref="AsciiFolding"/> to terms, so "café" and "cafe" index alike.</summary>
public sealed class AsciiFoldingFilter : TokenFilter
{
    /// <summary>The shared instance; the filter has no state.</summary>
    public static AsciiFoldingFilter Instance { get; } = new();

    /// <inheritdoc />
    public override int MaxExpansion => AsciiFolding.MaxExpansion;

    /// <inheritdoc />
    public override bool Apply(ref TermBuffer term)
    {
        if (!AsciiFolding.NeedsFolding(term.Chars))
        {
            return true;
        }

        // Folding can lengthen the term, so fold into scratch and copy back rather than
        // overwrite characters not yet read.
        int written = AsciiFolding.Fold(term.Chars, term.Scratch);
        if (written >= 0 && written <= term.Capacity)
        {
            term.Scratch[..written].CopyTo(term.Space);
            term.Length = written;
        }

        return true;
    }
}
