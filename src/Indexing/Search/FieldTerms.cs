using System.Globalization;
using System.Text;
using Folio.Indexing.Analysis;

namespace Folio.Indexing.Search;

/// <summary>
/// A query's values turned into the terms and bounds a field was indexed with, by the field's schema alone, so
/// every search engine looks for the same terms Folio's analysis made (<see cref="Engines.ISearchEngine"/>).
/// </summary>
internal static class FieldTerms
{
    /// <summary>The term an equality on <paramref name="field"/> looks for, or null when the value cannot be one of its terms.</summary>
    internal static byte[]? EqualityTerm(IndexSchema schema, string field, FieldValue value)
    {
        var options = schema.Get(field);
        try
        {
            switch (options.Kind)
            {
                case FieldKind.Long:
                    return TryToLong(value, out var number) ? TermEncoding.Long(number) : null;
                case FieldKind.Double:
                    return TryToDouble(value, out var real) ? TermEncoding.Double(real) : null;
                case FieldKind.Stored:
                    return null;
                default:
                    var terms = AnalyzeDistinct(schema, field, value.ToString());
                    return terms.Count == 1 ? terms[0] : null;
            }
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    /// <summary>Text normalized the way a prefix or wildcard on <paramref name="field"/> compares: case folded unless the field is case-sensitive, not stemmed; whole, never shortened.</summary>
    internal static byte[] NormalizedText(IndexSchema schema, string field, string text)
    {
        var options = schema.Get(field);
        if (options.Kind == FieldKind.FullText)
            return Encoding.UTF8.GetBytes(AsciiFolding.Fold(text.ToLowerInvariant()));
        return Encoding.UTF8.GetBytes(options.CaseSensitive ? text : text.ToLowerInvariant());
    }

    /// <summary>
    /// Like <see cref="EqualityTerm"/>, but a text value's whole bytes even past
    /// <see cref="TermEncoding.MaxTermBytes"/> (what range bounds compare with).
    /// </summary>
    internal static byte[]? WholeTerm(IndexSchema schema, string field, FieldValue value)
    {
        var options = schema.Get(field);
        if (options.Kind is not (FieldKind.Exact or FieldKind.FullText))
            return EqualityTerm(schema, field, value);
        byte[]? whole = null;
        foreach (var token in options.EffectiveAnalyzer.AnalyzeToList(value.ToString()))
        {
            var bytes = Encoding.UTF8.GetBytes(token.Term);
            if (whole is not null && !whole.AsSpan().SequenceEqual(bytes))
                return null;
            whole = bytes;
        }
        return whole;
    }

    internal static List<byte[]> AnalyzeDistinct(IndexSchema schema, string field, string text)
    {
        var seen = new HashSet<byte[]>(ByteArrayComparer.Instance);
        var terms = new List<byte[]>();
        foreach (var token in schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text))
        {
            var term = TermEncoding.Text(token.Term);
            if (seen.Add(term))
                terms.Add(term);
        }
        return terms;
    }

    /// <summary>
    /// The terms a fuzzy query on <paramref name="field"/> looks near: the distinct tokens of the field's analysis of
    /// <paramref name="text"/> (an exact field's one whole normalized value); none for a field without text terms.
    /// </summary>
    internal static List<string> FuzzyTerms(IndexSchema schema, string field, string text)
    {
        var options = schema.Get(field);
        var terms = new List<string>();
        if (options.Kind is not (FieldKind.Exact or FieldKind.FullText))
            return terms;
        foreach (var token in options.EffectiveAnalyzer.AnalyzeToList(text))
        {
            if (!terms.Contains(token.Term))
                terms.Add(token.Term);
        }
        return terms;
    }

    internal static List<(byte[] Term, int Position)> AnalyzeWithPositions(IndexSchema schema, string field, string text)
    {
        var tokens = new List<(byte[], int)>();
        foreach (var token in schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text))
            tokens.Add((TermEncoding.Text(token.Term), token.Position));
        return tokens;
    }

    /// <summary>A value as the text an exact, full-text or stored field indexes.</summary>
    internal static string IndexedText(FieldValue value) => value.Type switch
    {
        FieldValueType.String => value.Text!,
        FieldValueType.Long => value.Long.ToString(CultureInfo.InvariantCulture),
        _ => value.Double.ToString("R", CultureInfo.InvariantCulture),
    };

    /// <summary>A value as a long field indexes it.</summary>
    /// <exception cref="IndexValueException">The value is no 64-bit integer.</exception>
    internal static long ToLong(FieldValue value, string name) =>
        TryToLong(value, out var number) ? number : throw new IndexValueException(name, value, "a 64-bit integer");

    /// <summary>A value as a double field indexes it.</summary>
    /// <exception cref="IndexValueException">The value is no number.</exception>
    internal static double ToDouble(FieldValue value, string name) =>
        TryToDouble(value, out var number) ? number : throw new IndexValueException(name, value, "a number");

    /// <summary>The value as a long field indexes it (what an equality on the field looks for); false when it is no 64-bit integer.</summary>
    private static bool TryToLong(FieldValue value, out long number)
    {
        switch (value.Type)
        {
            case FieldValueType.Long:
                number = value.Long;
                return true;
            case FieldValueType.Double when value.Double == Math.Floor(value.Double) && value.Double is >= long.MinValue and <= long.MaxValue:
                number = (long)value.Double;
                return true;
            case FieldValueType.String:
                return long.TryParse(value.Text, NumberStyles.Integer, CultureInfo.InvariantCulture, out number);
            default:
                number = 0;
                return false;
        }
    }

    /// <summary>The value as a double field indexes it; false when it is no number.</summary>
    private static bool TryToDouble(FieldValue value, out double number)
    {
        number = value.Type switch
        {
            FieldValueType.Long => value.Long,
            FieldValueType.Double => value.Double,
            FieldValueType.String when double.TryParse(value.Text, NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) => parsed,
            _ => double.NaN,
        };
        return !double.IsNaN(number);
    }
}
