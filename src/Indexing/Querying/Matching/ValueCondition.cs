using System.Text.Json;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying.Matching;

/// <summary>What one JSON value must be to meet a condition, compared as an auto index compares its terms.</summary>
internal sealed class ValueCondition
{
    private readonly Kind _kind;
    private readonly FieldValue? _low;
    private readonly bool _lowInclusive;
    private readonly FieldValue? _high;
    private readonly bool _highInclusive;
    private readonly FieldValue[] _values;

    // Text bounds as an auto index keeps text: lower-cased, compared by their bytes.
    private readonly string? _lowText;
    private readonly string? _highText;

    private ValueCondition(Kind kind, FieldValue? low, bool lowInclusive, FieldValue? high, bool highInclusive, FieldValue[] values)
    {
        _kind = kind;
        _low = low;
        _lowInclusive = lowInclusive;
        _high = high;
        _highInclusive = highInclusive;
        _values = values;
        _lowText = low?.Text?.ToLowerInvariant();
        _highText = high?.Text?.ToLowerInvariant();
    }

    private enum Kind
    {
        Equal,
        Range,
        Present,
        StartsWith,
        EndsWith,
    }

    /// <summary>Any value at all: <c>exists(F)</c>.</summary>
    public static ValueCondition Present { get; } = new(Kind.Present, null, false, null, false, []);

    public static ValueCondition EqualTo(FieldValue value) => new(Kind.Equal, null, false, null, false, [value]);

    public static ValueCondition OneOf(FieldValue[] values) => new(Kind.Equal, null, false, null, false, values);

    public static ValueCondition Between(FieldValue low, FieldValue high) => Range(low, true, high, true);

    /// <summary>A range; a null bound is open. A bound compares with values of its own kind (numbers or text) only.</summary>
    public static ValueCondition Range(FieldValue? low, bool lowInclusive, FieldValue? high, bool highInclusive)
    {
        if (low is { Type: FieldValueType.Null } || high is { Type: FieldValueType.Null })
            throw new QueryException("A range cannot have null as a bound.");
        return new(Kind.Range, low, lowInclusive, high, highInclusive, []);
    }

    public static ValueCondition StartsWith(string prefix) => new(Kind.StartsWith, FieldValue.From(prefix), false, null, false, []);

    public static ValueCondition EndsWith(string suffix) => new(Kind.EndsWith, FieldValue.From(suffix), false, null, false, []);

    /// <summary>Whether the document id meets the condition (ids compare ignoring case, as text).</summary>
    public bool MeetsId(string id) => _kind == Kind.Present || MeetsText(id);

    public bool Meets(JsonElement value)
    {
        if (_kind == Kind.Present)
            return true;
        return value.ValueKind switch
        {
            JsonValueKind.String => MeetsText(value.GetString()!),
            JsonValueKind.True => MeetsText("true"),
            JsonValueKind.False => MeetsText("false"),
            JsonValueKind.Number => MeetsNumber(value.GetDouble()),
            JsonValueKind.Null => _kind == Kind.Equal && HasNull(),
            _ => false,
        };
    }

    private bool HasNull()
    {
        foreach (FieldValue value in _values)
        {
            if (value.Type == FieldValueType.Null)
                return true;
        }

        return false;
    }

    private bool MeetsText(string text)
    {
        switch (_kind)
        {
            case Kind.Equal:
                foreach (FieldValue value in _values)
                {
                    if (value.Type == FieldValueType.String && string.Equals(value.Text, text, StringComparison.OrdinalIgnoreCase))
                        return true;
                }

                return false;
            case Kind.StartsWith:
                return text.StartsWith(_low!.Value.Text!, StringComparison.OrdinalIgnoreCase);
            case Kind.EndsWith:
                return text.EndsWith(_low!.Value.Text!, StringComparison.OrdinalIgnoreCase);
            default:
                string folded = text.ToLowerInvariant();
                if (_low is not null && (_lowText is null || !Within(string.CompareOrdinal(folded, _lowText), _lowInclusive, below: false)))
                    return false;
                return _high is null || (_highText is not null && Within(string.CompareOrdinal(folded, _highText), _highInclusive, below: true));
        }
    }

    private bool MeetsNumber(double number)
    {
        switch (_kind)
        {
            case Kind.Equal:
                foreach (FieldValue value in _values)
                {
                    if (IsNumber(value) && value.Double == number)
                        return true;
                }

                return false;
            case Kind.Range:
                if (_low is { } low && (!IsNumber(low) || !Within(number.CompareTo(low.Double), _lowInclusive, below: false)))
                    return false;
                return _high is not { } high || (IsNumber(high) && Within(number.CompareTo(high.Double), _highInclusive, below: true));
            default:
                return false;
        }
    }

    /// <summary>Whether a comparison with a bound keeps the value inside: above a lower bound, below an upper one.</summary>
    private static bool Within(int comparison, bool inclusive, bool below) =>
        comparison == 0 ? inclusive : below ? comparison < 0 : comparison > 0;

    private static bool IsNumber(FieldValue value) => value.Type is FieldValueType.Long or FieldValueType.Double;
}
