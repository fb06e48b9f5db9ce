using System.Globalization;
using System.Text;
using Folio.Indexing.Analysis;
using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests.Search;

/// <summary>The fields of the oracle's index, one of every kind the oracle models.</summary>
internal static class OracleFields
{
    /// <summary>Exact, case-insensitive, single-valued (empty strings, unicode and long values).</summary>
    public const string Name = "Name";

    /// <summary>Exact, case-sensitive, single-valued (short codes: dense ranges and prefixes).</summary>
    public const string Code = "Code";

    /// <summary>Exact, case-insensitive, 0-4 values (nulls among them).</summary>
    public const string Tags = "Tags";

    /// <summary>A long.</summary>
    public const string Num = "Num";

    /// <summary>A double.</summary>
    public const string Price = "Price";

    /// <summary>Full text, one or two values.</summary>
    public const string Body = "Body";

    public static readonly string[] Exact = [Name, Code, Tags];

    public static readonly string[] All = [Name, Code, Tags, Num, Price, Body];

    public static readonly string[] Sortable = [Name, Code, Tags, Num, Price];

    public static IndexSchema Schema() => new IndexSchema()
        .Add(Name, FieldKind.Exact)
        .Add(Code, new FieldOptions(FieldKind.Exact, CaseSensitive: true))
        .Add(Tags, FieldKind.Exact)
        .Add(Num, FieldKind.Long)
        .Add(Price, FieldKind.Double)
        .Add(Body, FieldKind.FullText);

    /// <summary>The field's position in <see cref="All"/> (names are compared by reference first: they are these constants).</summary>
    public static int IndexOf(string field)
    {
        for (var i = 0; i < All.Length; i++)
        {
            if (ReferenceEquals(All[i], field))
                return i;
        }
        return Array.IndexOf(All, field);
    }

    public static FieldKind Kind(string field) => field switch
    {
        Num => FieldKind.Long,
        Price => FieldKind.Double,
        Body => FieldKind.FullText,
        _ => FieldKind.Exact,
    };

    /// <summary>How the index normalizes an exact value: invariant lower case unless the field is case-sensitive.</summary>
    public static string Normalize(string field, string text) => field == Code ? text : text.ToLowerInvariant();

    public static byte[] NormalizedBytes(string field, string text) => Encoding.UTF8.GetBytes(Normalize(field, text));
}

/// <summary>One field of one entry as the oracle sees it.</summary>
internal sealed class OracleField
{
    public bool HasNull { get; set; }

    /// <summary>Exact fields: the normalized UTF-8 of each non-null value.</summary>
    public List<byte[]> Texts { get; } = [];

    public List<long> Longs { get; } = [];

    public List<double> Doubles { get; } = [];

    /// <summary>Full-text fields: each analyzed term's positions (values separated by the batch's position gap).</summary>
    public Dictionary<string, List<int>> Positions { get; } = new(StringComparer.Ordinal);

    /// <summary>What GetValues returns: values in order, exact text normalized, numbers converted to the field's kind.</summary>
    public List<FieldValue> Stored { get; } = [];

    public byte[]? MinText { get; set; }

    public long? MinLong { get; set; }

    public double? MinDouble { get; set; }
}

/// <summary>An entry as plain objects: its key, the id the index must have given it, and its values.</summary>
internal sealed class OracleDoc
{
    private OracleField?[]? _fields;

    public OracleDoc(string key, long id, List<(string Field, FieldValue Value)> values)
    {
        Key = key;
        Id = id;
        Values = values;
    }

    public string Key { get; }

    public long Id { get; }

    public List<(string Field, FieldValue Value)> Values { get; }

    public OracleField? Field(string name) => (_fields ?? Build())[OracleFields.IndexOf(name)];

    public OracleField? Field(int index) => (_fields ?? Build())[index];

    /// <summary>Works out what the index should hold for the entry (lazily: many entries are replaced before any query).</summary>
    public OracleField?[] Build()
    {
        if (_fields is { } built)
            return built;
        var fields = new OracleField?[OracleFields.All.Length];
        foreach (var (name, value) in Values)
        {
            var field = fields[OracleFields.IndexOf(name)] ??= new OracleField();
            Add(name, field, value);
        }
        foreach (var field in fields)
        {
            if (field is not null)
                Complete(field);
        }
        return _fields = fields;
    }

    public IndexEntry ToEntry()
    {
        var entry = new IndexEntry(Key);
        foreach (var (field, value) in Values)
            entry.Add(field, value);
        return entry;
    }

    private void Add(string name, OracleField field, FieldValue value)
    {
        if (value.Type == FieldValueType.Null)
        {
            field.HasNull = true;
            if (OracleFields.Kind(name) != FieldKind.FullText)
                field.Stored.Add(FieldValue.Null);
            return;
        }
        switch (OracleFields.Kind(name))
        {
            case FieldKind.Long:
                var number = value.Type switch
                {
                    FieldValueType.Long => value.Long,
                    FieldValueType.Double => (long)value.Double,
                    _ => long.Parse(value.Text!, CultureInfo.InvariantCulture),
                };
                field.Longs.Add(number);
                field.Stored.Add(FieldValue.From(number));
                break;
            case FieldKind.Double:
                var real = value.Type switch
                {
                    FieldValueType.Long => value.Long,
                    FieldValueType.Double => value.Double,
                    _ => double.Parse(value.Text!, CultureInfo.InvariantCulture),
                };
                field.Doubles.Add(real);
                field.Stored.Add(FieldValue.From(real == 0 ? 0.0 : real));
                break;
            case FieldKind.FullText:
                AddText(field, value.Text!);
                break;
            default:
                field.Texts.Add(OracleFields.NormalizedBytes(name, value.Text!));
                field.Stored.Add(FieldValue.From(OracleFields.Normalize(name, value.Text!)));
                break;
        }
    }

    // Positions as the index assigns them: a value's tokens at base + token position; the next value
    // starts PositionGapBetweenValues after the last token of the one before (nulls take no place).
    private int _nextPosition;
    private int _textValues;

    private void AddText(OracleField field, string text)
    {
        if (_textValues++ > 0)
            _nextPosition += IndexBatch.PositionGapBetweenValues;
        var basePosition = _nextPosition;
        foreach (var token in StandardEnglishAnalyzer.Instance.AnalyzeToList(text))
        {
            var position = basePosition + token.Position;
            if (!field.Positions.TryGetValue(token.Term, out var positions))
            {
                positions = [];
                field.Positions.Add(token.Term, positions);
            }
            positions.Add(position);
            _nextPosition = position + 1;
        }
    }

    private static void Complete(OracleField field)
    {
        foreach (var text in field.Texts)
        {
            if (field.MinText is null || text.AsSpan().SequenceCompareTo(field.MinText) < 0)
                field.MinText = text;
        }
        foreach (var number in field.Longs)
            field.MinLong = field.MinLong is { } m ? Math.Min(m, number) : number;
        foreach (var real in field.Doubles)
            field.MinDouble = field.MinDouble is { } m && m <= real ? m : real;
    }

    public override string ToString()
    {
        var builder = new StringBuilder().Append(Key).Append(" #").Append(Id).Append(" {");
        foreach (var (field, value) in Values)
            builder.Append(' ').Append(field).Append('=').Append(OracleQuery.Show(value));
        return builder.Append(" }").ToString();
    }
}

/// <summary>The index's contents as the oracle keeps them: live entries by key and the next entry id.</summary>
internal sealed class OracleModel
{
    private readonly Dictionary<string, OracleDoc> _live = new(StringComparer.Ordinal);

    public long NextId { get; private set; }

    public int Count => _live.Count;

    public IEnumerable<OracleDoc> Docs => _live.Values;

    public OracleDoc? Get(string key) => _live.GetValueOrDefault(key);

    public void Add(string key, List<(string Field, FieldValue Value)> values) => _live[key] = new OracleDoc(key, NextId++, values);

    public bool Delete(string key) => _live.Remove(key);

    /// <summary>The live entries in id order (what an unsorted search walks).</summary>
    public List<OracleDoc> Snapshot()
    {
        var docs = _live.Values.ToList();
        docs.Sort(static (a, b) => a.Id.CompareTo(b.Id));
        return docs;
    }

    /// <summary>Sorts <paramref name="docs"/> by <paramref name="sort"/>, then by id (each entry's sort fields looked up once).</summary>
    public static void Sort(List<OracleDoc> docs, IReadOnlyList<SortField> sort)
    {
        var keys = new (OracleDoc Doc, OracleField?[] Fields)[docs.Count];
        for (var i = 0; i < keys.Length; i++)
        {
            var fields = new OracleField?[sort.Count];
            for (var k = 0; k < sort.Count; k++)
                fields[k] = docs[i].Field(sort[k].Field!);
            keys[i] = (docs[i], fields);
        }
        var kinds = sort.Select(k => OracleFields.Kind(k.Field!)).ToArray();
        Array.Sort(keys, (a, b) =>
        {
            for (var k = 0; k < kinds.Length; k++)
            {
                var cmp = CompareField(a.Fields[k], b.Fields[k], kinds[k]);
                if (cmp != 0)
                    return sort[k].Descending ? -cmp : cmp;
            }
            return a.Doc.Id.CompareTo(b.Doc.Id);
        });
        for (var i = 0; i < keys.Length; i++)
            docs[i] = keys[i].Doc;
    }

    // Missing and null (and all-null) sort before every value.
    private static int CompareField(OracleField? x, OracleField? y, FieldKind kind)
    {
        switch (kind)
        {
            case FieldKind.Long:
                return Nullable.Compare(x?.MinLong, y?.MinLong);
            case FieldKind.Double:
                var a = x?.MinDouble;
                var b = y?.MinDouble;
                if (a is null || b is null)
                    return a is null ? (b is null ? 0 : -1) : 1;
                return a < b ? -1 : a > b ? 1 : 0;
            default:
                var s = x?.MinText;
                var t = y?.MinText;
                if (s is null || t is null)
                    return s is null ? (t is null ? 0 : -1) : 1;
                return Math.Sign(s.AsSpan().SequenceCompareTo(t));
        }
    }
}

/// <summary>Makes entries, batches of changes, queries, sorts and pages from one seed.</summary>
internal sealed class OracleGenerator(int seed)
{
    private static readonly string[] NamePool =
    [
        "Ada", "ada", "ADA", "Grace", "grace hopper", "José", "JOSÉ", "josé", "Zoë", "ZOË", "Ærøskøbing", "ærøskøbing",
        "Straße", "STRASSE", "İstanbul", "istanbul", "東京", "東京タワー", "北京", "서울", "Ελλάδα", "ΕΛΛΆΔΑ", "Москва", "МОСКВА",
        "🍕", "🍕 Pizza", "😀😃", "👩‍💻", "𐐀𐐁", "𐐨𐐩", "a", "A", "b", "ab", "aB", "Ab", "", " ", "z", "~", "é", "e\u0301",
        "tab\there", "zero\0byte", "\uFFFF", "\uE000", "𝔘𝔫𝔦",
    ];

    private static readonly string[] TagPool =
    [
        "red", "Red", "RED", "blue", "green", "Grün", "GRÜN", "naïve", "café", "CAFÉ", "東京", "東", "🍕", "🍕🍕", "ß", "SS",
        "x", "xy", "xyz", "Xyz", "", "alpha", "beta", "gamma", "Δέλτα", "δέλτα", "𐐀", "𐐨",
    ];

    private static readonly string[] Syllables = ["ka", "lo", "mi", "ne", "ro", "su", "TA", "Vi", "zé", "ö", "東", "ñu", "🍕"];

    private static readonly string[] LongPrefixes =
    [
        new string('x', 250),
        new string('x', 300),
        string.Concat(Enumerable.Repeat("ü", 160)),
        string.Concat(Enumerable.Repeat("東京", 45)),
        string.Concat(Enumerable.Repeat("Ab", 130)),
    ];

    private static readonly string[] CodeChars = ["a", "A", "b", "B", "c", "C", "z", "Z", "0", "1", "é", "É", "_"];

    public static readonly string[] Vocabulary =
    [
        "the", "quick", "brown", "fox", "foxes", "jumps", "jumped", "jumping", "over", "lazy", "dog", "dogs", "run",
        "running", "runner", "runs", "café", "CAFE", "naïve", "of", "and", "a", "to", "search", "searching", "index",
        "indexed", "indexes", "data", "database", "B-tree", "tree", "trees", "東京", "🍕", "hello", "world", "it's",
        "o'clock", "3.14", "x86",
    ];

    private static readonly long[] LongExtremes =
    [
        long.MinValue, long.MinValue + 1, long.MaxValue, long.MaxValue - 1, 0, -1, 1, int.MaxValue, int.MinValue,
        (long)int.MaxValue + 1, 1L << 53, -(1L << 53), 255, 256, -256,
    ];

    private static readonly double[] DoubleSpecials =
    [
        -0.0, 0.0, double.MaxValue, double.MinValue, double.Epsilon, -double.Epsilon, double.PositiveInfinity,
        double.NegativeInfinity, 1e-300, -1e300, 0.1, 0.30000000000000004, 1.0, -1.0,
    ];

    private readonly Random _random = new(seed);

    public int Seed { get; } = seed;

    public Random Random => _random;

    public bool Chance(double p) => _random.NextDouble() < p;

    public T Pick<T>(IReadOnlyList<T> items) => items[_random.Next(items.Count)];

    public static string Key(int n) => n % 7 == 0 ? $"キー/{n}" : $"doc/{n}";

    public List<(string Field, FieldValue Value)> Values()
    {
        var values = new List<(string, FieldValue)>();
        if (!Chance(0.10))
            values.Add((OracleFields.Name, Chance(0.06) ? FieldValue.Null : FieldValue.From(Text())));
        if (!Chance(0.10))
            values.Add((OracleFields.Code, Chance(0.05) ? FieldValue.Null : FieldValue.From(Code())));
        var tags = _random.Next(5);
        for (var i = 0; i < tags; i++)
            values.Add((OracleFields.Tags, Chance(0.08) ? FieldValue.Null : FieldValue.From(Tag())));
        if (!Chance(0.12))
            values.Add((OracleFields.Num, Chance(0.08) ? FieldValue.Null : LongValue()));
        if (!Chance(0.12))
            values.Add((OracleFields.Price, Chance(0.08) ? FieldValue.Null : DoubleValue()));
        if (!Chance(0.10))
        {
            if (Chance(0.03))
            {
                values.Add((OracleFields.Body, FieldValue.Null));
            }
            else
            {
                var count = Chance(0.2) ? 2 : 1;
                for (var i = 0; i < count; i++)
                    values.Add((OracleFields.Body, FieldValue.From(Sentence(1, 8))));
            }
        }
        // Fields come in any order, as documents give them.
        for (var i = values.Count - 1; i > 0; i--)
        {
            var j = _random.Next(i + 1);
            (values[i], values[j]) = (values[j], values[i]);
        }
        return values;
    }

    public string Text()
    {
        var roll = _random.NextDouble();
        if (roll < 0.35)
            return Pick(NamePool);
        if (roll < 0.85)
            return Syllable() + Syllable() + (Chance(0.5) ? Syllable() : "");
        if (roll < 0.97)
            return Pick(LongPrefixes) + Syllable() + Syllable();
        // Right at the lengths where terms start being shortened.
        return new string('x', Pick(new[] { 238, 239, 240, 255, 256, 257 })) + (Chance(0.5) ? "" : Syllable());
    }

    public string Tag() => Chance(0.7) ? Pick(TagPool) : Chance(0.8) ? Syllable() + Syllable() : Pick(LongPrefixes) + Syllable();

    public string Code()
    {
        var length = _random.Next(1, 5);
        var builder = new StringBuilder();
        for (var i = 0; i < length; i++)
            builder.Append(Pick(CodeChars));
        return builder.ToString();
    }

    private string Syllable() => Pick(Syllables);

    public string Sentence(int min, int max)
    {
        var count = _random.Next(min, max + 1);
        var words = new string[count];
        for (var i = 0; i < count; i++)
            words[i] = Chance(0.03) ? "zebra" : Pick(Vocabulary);
        return string.Join(Chance(0.8) ? " " : ", ", words);
    }

    public long Long()
    {
        var roll = _random.NextDouble();
        if (roll < 0.55)
            return _random.Next(-50, 51);
        if (roll < 0.7)
            return Pick(LongExtremes);
        return _random.NextInt64(long.MinValue, long.MaxValue);
    }

    private FieldValue LongValue()
    {
        var value = Long();
        var roll = _random.NextDouble();
        if (roll < 0.05 && value is > -(1L << 53) and < 1L << 53)
            return FieldValue.From((double)value);
        if (roll < 0.10)
            return FieldValue.From(value.ToString(CultureInfo.InvariantCulture));
        return FieldValue.From(value);
    }

    public double Double()
    {
        var roll = _random.NextDouble();
        if (roll < 0.5)
            return Math.Round((_random.NextDouble() * 200) - 100, 2);
        if (roll < 0.65)
            return _random.Next(-5, 6);
        if (roll < 0.8)
            return Pick(DoubleSpecials);
        while (true)
        {
            var bits = BitConverter.Int64BitsToDouble(_random.NextInt64(long.MinValue, long.MaxValue));
            if (!double.IsNaN(bits))
                return bits;
        }
    }

    private FieldValue DoubleValue()
    {
        var value = Double();
        if (Chance(0.05) && value == Math.Floor(value) && Math.Abs(value) < 1e15)
            return FieldValue.From((long)value);
        return FieldValue.From(value);
    }

    // ---- queries ----

    /// <summary>A random boolean combination, nested up to <paramref name="maxDepth"/> levels.</summary>
    public OracleQuery Query(IReadOnlyList<OracleDoc> docs, int maxDepth = 3, bool withText = true)
    {
        if (maxDepth == 0 || Chance(0.3))
            return Leaf(docs, withText);
        var roll = _random.NextDouble();
        if (roll < 0.4)
        {
            var must = new List<OracleQuery>();
            var mustCount = Chance(0.1) ? 0 : _random.Next(1, 4);
            for (var i = 0; i < mustCount; i++)
                must.Add(Query(docs, maxDepth - 1, withText));
            var not = new List<OracleQuery>();
            var notCount = mustCount == 0 ? _random.Next(1, 3) : _random.Next(0, 3);
            for (var i = 0; i < notCount; i++)
                not.Add(Query(docs, maxDepth - 1, withText));
            return new OracleAnd(must, not);
        }
        if (roll < 0.8)
        {
            var should = new List<OracleQuery>();
            var count = Chance(0.05) ? 0 : _random.Next(1, 4);
            for (var i = 0; i < count; i++)
                should.Add(Query(docs, maxDepth - 1, withText));
            return new OracleOr(should);
        }
        return new OracleNot(Query(docs, maxDepth - 1, withText));
    }

    public OracleQuery Leaf(IReadOnlyList<OracleDoc> docs, bool withText = true)
    {
        var roll = _random.Next(withText ? 100 : 90);
        return roll switch
        {
            < 14 => ExactTerm(docs),
            < 20 => TermsIn(docs),
            < 32 => ExactRange(docs),
            < 40 => Prefix(docs),
            < 44 => Wildcard(docs),
            < 52 => new OracleTerm(OracleFields.Num, NumberValue(docs, OracleFields.Num)),
            < 60 => NumberRange(docs, OracleFields.Num),
            < 65 => new OracleTerm(OracleFields.Price, NumberValue(docs, OracleFields.Price)),
            < 73 => NumberRange(docs, OracleFields.Price),
            < 80 => new OracleExists(Pick(OracleFields.All)),
            < 86 => new OracleTerm(Pick(OracleFields.All), FieldValue.Null),
            < 90 => Chance(0.3) ? new OracleMatchAll() : new OracleExists(Pick(OracleFields.Sortable)),
            < 95 => FullText(docs),
            _ => Phrase(docs),
        };
    }

    /// <summary>
    /// A clause matching a few hundred to a few thousand entries: sorting reads every match's doc
    /// values, so most sorted queries are narrowed by one (and their other clauses are then walked by Advance).
    /// </summary>
    public OracleQuery Narrow(IReadOnlyList<OracleDoc> docs)
    {
        switch (_random.Next(5))
        {
            case 0:
                return new OracleTerm(OracleFields.Num, FieldValue.From((long)_random.Next(-50, 51)));
            case 1:
                var low = _random.Next(-50, 45);
                return new OracleRange(OracleFields.Num, FieldValue.From((long)low), Chance(0.5), FieldValue.From((long)low + _random.Next(1, 8)), Chance(0.5));
            case 2:
                return ExactTerm(docs);
            case 3:
                var code = Code();
                return new OraclePrefix(OracleFields.Code, code[..Math.Min(code.Length, _random.Next(1, 3))]);
            default:
                var from = Math.Round((_random.NextDouble() * 200) - 100);
                return new OracleRange(OracleFields.Price, FieldValue.From(from), Chance(0.5), FieldValue.From(from + _random.Next(1, 10)), Chance(0.5));
        }
    }

    private OracleQuery ExactTerm(IReadOnlyList<OracleDoc> docs)
    {
        var field = Pick(OracleFields.Exact);
        return new OracleTerm(field, ExactValue(docs, field));
    }

    private OracleQuery Prefix(IReadOnlyList<OracleDoc> docs)
    {
        var field = Pick(OracleFields.Exact);
        return new OraclePrefix(field, PrefixOf(docs, field));
    }

    private OracleQuery TermsIn(IReadOnlyList<OracleDoc> docs)
    {
        var roll = _random.Next(3);
        var field = roll == 0 ? Pick(OracleFields.Exact) : roll == 1 ? OracleFields.Num : OracleFields.Price;
        var values = new List<FieldValue>();
        var count = _random.Next(0, 6);
        for (var i = 0; i < count; i++)
            values.Add(Chance(0.1) ? FieldValue.Null : roll == 0 ? ExactValue(docs, field) : NumberValue(docs, field));
        return new OracleTermsIn(field, values);
    }

    /// <summary>A value of an exact field: mostly one that some entry has, its case changed now and then.</summary>
    private FieldValue ExactValue(IReadOnlyList<OracleDoc> docs, string field)
    {
        var text = Chance(0.75) ? ExistingText(docs, field) ?? Text() : field == OracleFields.Code ? Code() : Text();
        if (Chance(0.3))
            text = Chance(0.5) ? text.ToUpperInvariant() : text.ToLowerInvariant();
        return FieldValue.From(text);
    }

    private string? ExistingText(IReadOnlyList<OracleDoc> docs, string field)
    {
        for (var attempt = 0; attempt < 20; attempt++)
        {
            var doc = Pick(docs);
            var values = doc.Values.Where(v => v.Field == field && v.Value.Type == FieldValueType.String).ToList();
            if (values.Count > 0)
                return Pick(values).Value.Text!;
        }
        return null;
    }

    /// <summary>A range on <paramref name="field"/> (bounds mostly from the data, now and then reversed or open).</summary>
    public OracleQuery Range(IReadOnlyList<OracleDoc> docs, string field) =>
        OracleFields.Kind(field) == FieldKind.Exact ? ExactRange(docs, field) : NumberRange(docs, field);

    private OracleQuery ExactRange(IReadOnlyList<OracleDoc> docs) => ExactRange(docs, Pick(OracleFields.Exact));

    private OracleQuery ExactRange(IReadOnlyList<OracleDoc> docs, string field)
    {
        FieldValue? lower = Chance(0.2) ? null : Chance(0.5) ? ExactValue(docs, field) : FieldValue.From(Code());
        FieldValue? upper = Chance(0.2) ? null : Chance(0.5) ? ExactValue(docs, field) : FieldValue.From(Code());
        if (lower is { } l && upper is { } u && Chance(0.85)
            && OracleFields.NormalizedBytes(field, l.Text!).AsSpan().SequenceCompareTo(OracleFields.NormalizedBytes(field, u.Text!)) > 0)
            (lower, upper) = (upper, lower);
        return new OracleRange(field, lower, Chance(0.5), upper, Chance(0.5));
    }

    private string PrefixOf(IReadOnlyList<OracleDoc> docs, string field)
    {
        var roll = _random.NextDouble();
        if (roll < 0.05)
            return "";
        var source = roll < 0.8 ? ExistingText(docs, field) ?? Text() : Text();
        // Prefixes are kept within the bytes a shortened term keeps whole.
        var length = _random.Next(0, Math.Min(source.Length, 60) + 1);
        while (length > 0 && (char.IsHighSurrogate(source[length - 1]) || Encoding.UTF8.GetByteCount(source.AsSpan(0, length)) > 200))
            length--;
        var prefix = source[..length];
        return Chance(0.3) ? prefix.ToUpperInvariant() : prefix;
    }

    private OracleQuery Wildcard(IReadOnlyList<OracleDoc> docs)
    {
        var field = Pick(OracleFields.Exact);
        var source = ExistingText(docs, field) ?? Text();
        var runes = source.EnumerateRunes().ToList();
        var take = Math.Min(runes.Count, _random.Next(1, 4));
        var fromEnd = Chance(0.5);
        var core = string.Concat((fromEnd ? runes.Skip(runes.Count - take) : runes.Skip(_random.Next(Math.Max(1, runes.Count - take + 1))).Take(take)).Select(r => r.ToString()));
        var pattern = _random.Next(3) switch
        {
            0 => "*" + core,
            1 => "*" + core + "*",
            _ => core + "*",
        };
        return new OracleWildcard(field, pattern);
    }

    private FieldValue NumberValue(IReadOnlyList<OracleDoc> docs, string field)
    {
        if (Chance(0.75))
        {
            for (var attempt = 0; attempt < 20; attempt++)
            {
                var doc = Pick(docs);
                var data = doc.Field(field);
                if (field == OracleFields.Num && data is { Longs.Count: > 0 })
                    return FieldValue.From(data.Longs[0]);
                if (field == OracleFields.Price && data is { Doubles.Count: > 0 })
                    return Chance(0.1) && data.Doubles[0] == Math.Floor(data.Doubles[0]) && Math.Abs(data.Doubles[0]) < 1e15
                        ? FieldValue.From((long)data.Doubles[0])
                        : FieldValue.From(data.Doubles[0]);
            }
        }
        if (field == OracleFields.Num)
            return Chance(0.1) ? FieldValue.From((double)_random.Next(-50, 51)) : FieldValue.From(Long());
        return FieldValue.From(Double());
    }

    private OracleQuery NumberRange(IReadOnlyList<OracleDoc> docs, string field)
    {
        FieldValue? lower = Chance(0.2) ? null : NumberValue(docs, field);
        FieldValue? upper = Chance(0.2) ? null : NumberValue(docs, field);
        if (lower is { } l && upper is { } u && Chance(0.85) && l.Double > u.Double)
            (lower, upper) = (upper, lower);
        return new OracleRange(field, lower, Chance(0.5), upper, Chance(0.5));
    }

    public OracleQuery FullText(IReadOnlyList<OracleDoc> docs) => new OracleFullText(OracleFields.Body, Chance(0.7) ? Sentence(1, 3) : BodyWords(docs, 1, 3) ?? Sentence(1, 2), Chance(0.3));

    public OracleQuery Phrase(IReadOnlyList<OracleDoc> docs) => new OraclePhrase(OracleFields.Body, Chance(0.75) ? BodyWords(docs, 2, 4) ?? Sentence(2, 3) : Sentence(2, 3));

    /// <summary>A run of consecutive words from some entry's text (so phrases mostly hit).</summary>
    private string? BodyWords(IReadOnlyList<OracleDoc> docs, int min, int max)
    {
        for (var attempt = 0; attempt < 20; attempt++)
        {
            var doc = Pick(docs);
            var texts = doc.Values.Where(v => v.Field == OracleFields.Body && v.Value.Type == FieldValueType.String).ToList();
            if (texts.Count == 0)
                continue;
            var words = Pick(texts).Value.Text!.Split([' ', ','], StringSplitOptions.RemoveEmptyEntries);
            var count = Math.Min(words.Length, _random.Next(min, max + 1));
            var start = _random.Next(words.Length - count + 1);
            return string.Join(' ', words.Skip(start).Take(count));
        }
        return null;
    }

    public List<SortField> Sort()
    {
        var count = _random.Next(3);
        var sort = new List<SortField>();
        for (var i = 0; i < count; i++)
            sort.Add(new SortField(Pick(OracleFields.Sortable), Descending: Chance(0.5)));
        return sort;
    }

    public (int Skip, int Take) Page()
    {
        var roll = _random.NextDouble();
        var skip = roll < 0.5 ? 0 : roll < 0.8 ? _random.Next(0, 100) : roll < 0.95 ? _random.Next(0, 3000) : 100_000;
        roll = _random.NextDouble();
        var take = roll < 0.05 ? 0 : roll < 0.75 ? _random.Next(1, 51) : roll < 0.97 ? _random.Next(51, 501) : int.MaxValue;
        return (skip, take);
    }
}

/// <summary>A query the test can run on the index and on the oracle's objects alike, with a readable form.</summary>
internal abstract class OracleQuery
{
    public abstract Query ToQuery();

    public abstract bool Matches(OracleDoc doc);

    /// <summary>The clauses of a boolean query (none for a leaf).</summary>
    public virtual IEnumerable<OracleQuery> Children => [];

    public static string Show(FieldValue value) => value.Type switch
    {
        FieldValueType.Null => "null",
        FieldValueType.Long => value.Long.ToString(CultureInfo.InvariantCulture) + "L",
        FieldValueType.Double => value.Double.ToString("R", CultureInfo.InvariantCulture) + "d",
        _ => Quote(value.Text!),
    };

    public static string Quote(string text)
    {
        var builder = new StringBuilder("\"");
        var shown = 0;
        foreach (var rune in text.EnumerateRunes())
        {
            if (shown++ == 48)
            {
                builder.Append("…(").Append(text.Length).Append(" chars, ").Append(Encoding.UTF8.GetByteCount(text)).Append(" bytes)");
                break;
            }
            if (rune.Value is '"' or '\\')
                builder.Append('\\').Append((char)rune.Value);
            else if (rune.Value < 0x20 || Rune.GetUnicodeCategory(rune) is UnicodeCategory.NonSpacingMark or UnicodeCategory.Format or UnicodeCategory.PrivateUse or UnicodeCategory.OtherNotAssigned)
                builder.Append(CultureInfo.InvariantCulture, $"\\u{rune.Value:X4}");
            else
                builder.Append(rune.ToString());
        }
        return builder.Append('"').ToString();
    }

    protected static List<byte[]> Texts(OracleDoc doc, int field) => doc.Field(field)?.Texts ?? NoTexts;

    private static readonly List<byte[]> NoTexts = [];
}

internal sealed class OracleTerm(string field, FieldValue value) : OracleQuery
{
    private readonly byte[]? _term = value.Type == FieldValueType.String && OracleFields.Kind(field) == FieldKind.Exact ? OracleFields.NormalizedBytes(field, value.Text!) : null;

    public string Field { get; } = field;

    public FieldValue Value { get; } = value;

    public override Query ToQuery() => new TermQuery(Field, Value);

    private readonly int _index = OracleFields.IndexOf(field);
    private readonly FieldKind _kind = OracleFields.Kind(field);

    public override bool Matches(OracleDoc doc)
    {
        var data = doc.Field(_index);
        if (data is null)
            return false;
        var value = Value;
        if (value.Type == FieldValueType.Null)
            return data.HasNull;
        switch (_kind)
        {
            case FieldKind.Long:
                if (value.Type == FieldValueType.Double && value.Double != Math.Floor(value.Double))
                    return false;
                var number = value.Type == FieldValueType.Long ? value.Long : (long)value.Double;
                return data.Longs.Contains(number);
            case FieldKind.Double:
                var real = value.Type == FieldValueType.Long ? value.Long : value.Double;
                return data.Doubles.Exists(d => d == real);
            case FieldKind.FullText:
                throw new InvalidOperationException("The oracle has no equality on full text.");
            default:
                foreach (var text in data.Texts)
                {
                    if (text.AsSpan().SequenceEqual(_term))
                        return true;
                }
                return false;
        }
    }

    public override string ToString() => $"{Field} = {Show(Value)}";
}

internal sealed class OracleTermsIn(string field, List<FieldValue> values) : OracleQuery
{
    private readonly List<OracleTerm> _terms = values.Select(v => new OracleTerm(field, v)).ToList();

    public override Query ToQuery() => new TermsInQuery(field, values);

    public override bool Matches(OracleDoc doc)
    {
        foreach (var term in _terms)
        {
            if (term.Matches(doc))
                return true;
        }
        return false;
    }

    public override string ToString() => $"{field} in [{string.Join(", ", values.Select(Show))}]";
}

internal sealed class OracleRange(string field, FieldValue? lower, bool lowerInclusive, FieldValue? upper, bool upperInclusive) : OracleQuery
{
    private readonly byte[]? _low = lower is { Type: FieldValueType.String } l && OracleFields.Kind(field) == FieldKind.Exact ? OracleFields.NormalizedBytes(field, l.Text!) : null;
    private readonly byte[]? _high = upper is { Type: FieldValueType.String } u && OracleFields.Kind(field) == FieldKind.Exact ? OracleFields.NormalizedBytes(field, u.Text!) : null;

    public string Field => @field;

    public override Query ToQuery() => new RangeQuery(field, lower, lowerInclusive, upper, upperInclusive);

    public ValueRange ToValueRange() => new(lower, lowerInclusive, upper, upperInclusive);

    private readonly int _index = OracleFields.IndexOf(field);
    private readonly FieldKind _kind = OracleFields.Kind(field);
    private readonly long _lowLong = lower?.Long ?? 0;
    private readonly long _highLong = upper?.Long ?? 0;
    private readonly double _lowReal = lower is { } l ? Real(l) : 0;
    private readonly double _highReal = upper is { } u ? Real(u) : 0;

    public override bool Matches(OracleDoc doc)
    {
        var data = doc.Field(_index);
        if (data is null)
            return false;
        switch (_kind)
        {
            case FieldKind.Long:
                foreach (var n in data.Longs)
                {
                    if (Within(n.CompareTo(_lowLong), n.CompareTo(_highLong)))
                        return true;
                }
                return false;
            case FieldKind.Double:
                foreach (var d in data.Doubles)
                {
                    if (Within(Compare(d, _lowReal), Compare(d, _highReal)))
                        return true;
                }
                return false;
            default:
                foreach (var t in data.Texts)
                {
                    if (Within(_low is null ? 0 : t.AsSpan().SequenceCompareTo(_low), _high is null ? 0 : t.AsSpan().SequenceCompareTo(_high)))
                        return true;
                }
                return false;
        }
    }

    private static double Real(FieldValue value) => value.Type == FieldValueType.Long ? value.Long : value.Double;

    private static int Compare(double x, double y) => x < y ? -1 : x > y ? 1 : 0;

    private bool Within(int toLower, int toUpper) =>
        (lower is null || toLower > 0 || (toLower == 0 && lowerInclusive)) && (upper is null || toUpper < 0 || (toUpper == 0 && upperInclusive));

    public override string ToString() =>
        $"{field} within {(lower is null ? "(-inf" : (lowerInclusive ? "[" : "(") + Show(lower.Value))}, {(upper is null ? "+inf)" : Show(upper.Value) + (upperInclusive ? "]" : ")"))}";
}

internal sealed class OraclePrefix(string field, string prefix) : OracleQuery
{
    private readonly byte[] _bytes = OracleFields.NormalizedBytes(field, prefix);
    private readonly int _index = OracleFields.IndexOf(field);

    public override Query ToQuery() => new PrefixQuery(field, prefix);

    public override bool Matches(OracleDoc doc)
    {
        foreach (var text in Texts(doc, _index))
        {
            if (text.AsSpan().StartsWith(_bytes))
                return true;
        }
        return false;
    }

    public override string ToString() => $"{field} starts with {Quote(prefix)}";
}

internal sealed class OracleWildcard(string field, string pattern) : OracleQuery
{
    private readonly byte[] _core = OracleFields.NormalizedBytes(field, pattern.Trim('*'));
    private readonly int _index = OracleFields.IndexOf(field);

    public override Query ToQuery() => new WildcardQuery(field, pattern);

    public override bool Matches(OracleDoc doc)
    {
        var leading = pattern.StartsWith('*');
        var trailing = pattern.Length > 1 && pattern.EndsWith('*');
        foreach (var t in Texts(doc, _index))
        {
            if (leading && trailing ? t.AsSpan().IndexOf(_core) >= 0
                : leading ? t.AsSpan().EndsWith(_core)
                : trailing ? t.AsSpan().StartsWith(_core)
                : t.AsSpan().SequenceEqual(_core))
                return true;
        }
        return false;
    }

    public override string ToString() => $"{field} like {Quote(pattern)}";
}

internal sealed class OracleExists(string field) : OracleQuery
{
    public override Query ToQuery() => new ExistsQuery(field);

    private readonly int _index = OracleFields.IndexOf(field);

    public override bool Matches(OracleDoc doc) => doc.Field(_index) is not null;

    public override string ToString() => $"exists({field})";
}

internal sealed class OracleMatchAll : OracleQuery
{
    public override Query ToQuery() => MatchAllQuery.Instance;

    public override bool Matches(OracleDoc doc) => true;

    public override string ToString() => "*";
}

internal sealed class OracleNot(OracleQuery clause) : OracleQuery
{
    public override Query ToQuery() => new NotQuery(clause.ToQuery());

    public override bool Matches(OracleDoc doc) => !clause.Matches(doc);

    public override IEnumerable<OracleQuery> Children => [clause];

    public override string ToString() => $"not({clause})";
}

internal sealed class OracleAnd(List<OracleQuery> must, List<OracleQuery> mustNot) : OracleQuery
{
    public override Query ToQuery() => new AndQuery(must.Select(q => q.ToQuery()).ToList(), mustNot.Select(q => q.ToQuery()).ToList());

    public override bool Matches(OracleDoc doc)
    {
        foreach (var clause in must)
        {
            if (!clause.Matches(doc))
                return false;
        }
        foreach (var clause in mustNot)
        {
            if (clause.Matches(doc))
                return false;
        }
        return true;
    }

    public override IEnumerable<OracleQuery> Children => must.Concat(mustNot);

    public override string ToString()
    {
        var parts = must.Select(q => q.ToString()).Concat(mustNot.Select(q => "-" + q));
        return $"and({string.Join(", ", parts)})";
    }
}

internal sealed class OracleOr(List<OracleQuery> should) : OracleQuery
{
    public override Query ToQuery() => new OrQuery(should.Select(q => q.ToQuery()).ToList());

    public override bool Matches(OracleDoc doc)
    {
        foreach (var clause in should)
        {
            if (clause.Matches(doc))
                return true;
        }
        return false;
    }

    public override IEnumerable<OracleQuery> Children => should;

    public override string ToString() => $"or({string.Join(", ", should)})";
}

/// <summary>Any (or all) of the text's analyzed terms; text that analyzes to nothing matches nothing.</summary>
internal sealed class OracleFullText(string field, string text, bool requireAll) : OracleQuery
{
    private readonly int _index = OracleFields.IndexOf(field);
    private readonly List<string> _terms = StandardEnglishAnalyzer.Instance.AnalyzeToList(text).Select(t => t.Term).Distinct(StringComparer.Ordinal).ToList();

    public override Query ToQuery() => new FullTextQuery(field, text, requireAll);

    public override bool Matches(OracleDoc doc)
    {
        if (_terms.Count == 0 || doc.Field(_index) is not { } data)
            return false;
        foreach (var term in _terms)
        {
            if (data.Positions.ContainsKey(term) != requireAll)
                return !requireAll;
        }
        return requireAll;
    }

    public override string ToString() => $"{field} ~ {Quote(text)}{(requireAll ? " (all)" : "")}";
}

/// <summary>The phrase's analyzed terms at the same relative positions (stop-word gaps kept) within one value.</summary>
internal sealed class OraclePhrase(string field, string phrase) : OracleQuery
{
    private readonly int _index = OracleFields.IndexOf(field);
    private readonly List<AnalyzedToken> _tokens = StandardEnglishAnalyzer.Instance.AnalyzeToList(phrase);

    public override Query ToQuery() => new PhraseQuery(field, phrase);

    public override bool Matches(OracleDoc doc)
    {
        if (_tokens.Count == 0 || doc.Field(_index) is not { } data)
            return false;
        if (!data.Positions.TryGetValue(_tokens[0].Term, out var starts))
            return false;
        foreach (var start in starts)
        {
            var all = true;
            for (var i = 1; i < _tokens.Count && all; i++)
                all = data.Positions.TryGetValue(_tokens[i].Term, out var positions) && positions.Contains(start + _tokens[i].Position - _tokens[0].Position);
            if (all)
                return true;
        }
        return false;
    }

    public override string ToString() => $"{field} phrase {Quote(phrase)}";
}
