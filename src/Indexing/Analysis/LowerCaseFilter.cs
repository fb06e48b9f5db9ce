using System.Text;

namespace Folio.Indexing.Analysis;

/// <summary>
/// Lower-cases terms with the invariant culture, so that indexing does not depend on the
/// server's locale (a Turkish server must not turn "I" into a dotless "ı").
/// </summary>
public sealed class LowerCaseFilter : TokenFilter
{
    /// <summary>The shared instance; the filter has no state.</summary>
    public static LowerCaseFilter Instance { get; } = new();

    /// <inheritdoc />
    public override bool Apply(ref TermBuffer term)
    {
        ToLowerInvariant(term.Chars);
        return true;
    }

    /// <summary>
    /// Lower-cases <paramref name="chars"/> in place, code point by code point (surrogate pairs
    /// included). Unpaired surrogates are left as they are.
    /// </summary>
    /// <param name="chars">The text to rewrite.</param>
    public static void ToLowerInvariant(Span<char> chars)
    {
        for (int i = 0; i < chars.Length; i++)
        {
            char c = chars[i];
            if (c < 0x80)
            {
                if ((uint)(c - 'A') <= 'Z' - 'A')
                {
                    chars[i] = (char)(c | 0x20);
                }

                continue;
            }

            if (!char.IsSurrogate(c))
            {
                chars[i] = char.ToLowerInvariant(c);
                continue;
            }

            if (char.IsHighSurrogate(c) && i + 1 < chars.Length && char.IsLowSurrogate(chars[i + 1]))
            {
                var lower = Rune.ToLowerInvariant(new Rune(c, chars[i + 1]));
                // Simple case mapping keeps supplementary letters supplementary; the check only
                // guards the in-place write should a future Unicode version break that.
                if (lower.Utf16SequenceLength == 2)
                {
                    lower.EncodeToUtf16(chars.Slice(i, 2));
                }

                i++;
            }
        }
    }

    /// <summary>Whether <see cref="ToLowerInvariant"/> would change <paramref name="chars"/>.</summary>
    /// <param name="chars">The text to inspect.</param>
    /// <returns><see langword="true"/> when some character has a lower-case form different from itself.</returns>
    public static bool HasUpperCase(ReadOnlySpan<char> chars)
    {
        for (int i = 0; i < chars.Length; i++)
        {
            char c = chars[i];
            if (c < 0x80)
            {
                if ((uint)(c - 'A') <= 'Z' - 'A')
                {
                    return true;
                }

                continue;
            }

            if (!char.IsSurrogate(c))
            {
                if (char.ToLowerInvariant(c) != c)
                {
                    return true;
                }

                continue;
            }

            if (char.IsHighSurrogate(c) && i + 1 < chars.Length && char.IsLowSurrogate(chars[i + 1]))
            {
                var rune = new Rune(c, chars[i + 1]);
                if (Rune.ToLowerInvariant(rune) != rune)
                {
                    return true;
                }

                i++;
            }
        }

        return false;
    }
}
