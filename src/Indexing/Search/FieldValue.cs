namespace Folio.Indexing.Search;

/// <summary>One value of a field of an entry: null, a string, a long or a double.</summary>
public readonly record struct FieldValue
{
    private FieldValue(FieldValueType type, string? text, long integer, double real)
    {
        Type = type;
        Text = text;
        Long = integer;
        Double = real;
    }

    /// <summary>What the value holds.</summary>
    public FieldValueType Type { get; }

    /// <summary>The string, when <see cref="Type"/> is <see cref="FieldValueType.String"/>.</summary>
    public string? Text { get; }

    /// <summary>The integer, when <see cref="Type"/> is <see cref="FieldValueType.Long"/>.</summary>
    public long Long { get; }

    /// <summary>The number, when <see cref="Type"/> is <see cref="FieldValueType.Double"/>.</summary>
    public double Double { get; }

    /// <summary>An explicit null (told apart from a missing field).</summary>
    public static FieldValue Null { get; } = new(FieldValueType.Null, null, 0, 0);

    /// <summary>A string value.</summary>
    public static FieldValue From(string text) => new(FieldValueType.String, text ?? throw new ArgumentNullException(nameof(text)), 0, 0);

    /// <summary>An integer value.</summary>
    public static FieldValue From(long value) => new(FieldValueType.Long, null, value, value);

    /// <summary>A floating-point value.</summary>
    public static FieldValue From(double value) => new(FieldValueType.Double, null, (long)value, value);

    /// <inheritdoc/>
    public override string ToString() => Type switch
    {
        FieldValueType.Null => "null",
        FieldValueType.String => Text!,
        FieldValueType.Long => Long.ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => Double.ToString("R", System.Globalization.CultureInfo.InvariantCulture),
    };
}

/// <summary>The type of a <see cref="FieldValue"/>.</summary>
public enum FieldValueType
{
    /// <summary>An explicit null.</summary>
    Null,

    /// <summary>A string.</summary>
    String,

    /// <summary>A 64-bit integer.</summary>
    Long,

    /// <summary>A double.</summary>
    Double,
}
