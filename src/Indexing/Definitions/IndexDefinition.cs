using Folio.Indexing.Search;

namespace Folio.Indexing.Definitions;

/// <summary>
/// What an index holds: its name, the collections it reads and its fields, or, for a map/reduce index, how
/// its documents group and aggregate (<see cref="Reduce"/>), whose result rows then are what its fields
/// describe. Its JSON form is <see cref="IndexDefinitionJson"/>'s.
/// </summary>
public sealed class IndexDefinition
{
    /// <summary>The name prefix of indexes the server makes for queries on collections.</summary>
    public const string AutoPrefix = "Auto/";

    /// <summary>The suffix of the numeric companion field an auto index keeps for each field.</summary>
    public const string NumericSuffix = "__num";

    /// <summary>The longest index name (and field name) a definition may have.</summary>
    public const int MaxNameLength = 200;

    /// <summary>The longest <see cref="OutputCollection"/> name, in UTF-8 bytes (the longest collection name a document may give).</summary>
    public const int MaxOutputCollectionBytes = 256;

    /// <summary>The field every index keeps with the document id, for <c>id()</c> in queries.</summary>
    public const string IdField = "id()";

    /// <summary>Builds a map index's definition after checking it.</summary>
    public IndexDefinition(string name, IReadOnlyList<string> collections, IReadOnlyDictionary<string, IndexFieldDefinition> fields)
    {
        Name = name;
        Collections = collections;
        Fields = fields;
        Validate();
    }

    /// <summary>
    /// Builds a map/reduce index's definition after checking it. Its <see cref="Fields"/> are those of the
    /// result rows: each group field (exact, with a numeric twin and a full-text twin <c>search(Name)</c>),
    /// and each aggregation (a count as a long, the others as doubles). With <paramref name="outputCollection"/>,
    /// each group's row is also kept as a document of that collection.
    /// </summary>
    public IndexDefinition(string name, IReadOnlyList<string> collections, ReduceDefinition reduce, string? outputCollection = null)
    {
        ArgumentNullException.ThrowIfNull(reduce);
        Name = name;
        Collections = collections;
        Reduce = reduce;
        OutputCollection = outputCollection;
        Fields = RowFields(reduce);
        Validate();
    }

    /// <summary>The index's name (compared case-insensitively).</summary>
    public string Name { get; }

    /// <summary>The collections whose documents the index reads.</summary>
    public IReadOnlyList<string> Collections { get; }

    /// <summary>The fields by name: of the documents for a map index, of the result rows for a map/reduce index.</summary>
    public IReadOnlyDictionary<string, IndexFieldDefinition> Fields { get; }

    /// <summary>How a map/reduce index groups and aggregates; null for a map index.</summary>
    public ReduceDefinition? Reduce { get; }

    /// <summary>
    /// The search engine that keeps the index (<see cref="Engines.SearchEngines"/>), canonically spelled; null when the
    /// definition names none and the server's default applies (the index store fills it in before it builds the index).
    /// </summary>
    public string? SearchEngine { get; private init; }

    /// <summary>
    /// The array a fan-out map index walks (<c>Lines[]</c>): one entry per element instead of one per document, each
    /// keyed by <see cref="FanOutKey"/> and holding its document's id in <see cref="IdField"/>. A field whose path starts
    /// with this one (<c>Lines[].Product</c>) takes the element's values, any other field the document's. Null for an
    /// index of one entry per document. Queries answer each document once (its first matching entry in their order).
    /// </summary>
    public FieldPath? ForEach
    {
        get;
        init
        {
            if (value is not null && (Reduce is not null || MapScript is not null || !value.Segments[^1].MarksArray))
                throw new IndexDefinitionException($"ForEach of index '{Name}' must be a path ending in [] (as Lines[]) on a map index.");
            field = value;
        }
    }

    /// <summary>
    /// The JavaScript program that maps a document to its entries, or null for a map index whose fields read the
    /// document itself. The program calls <c>map('Collection', doc =&gt; …)</c> once per collection (it may declare helper
    /// functions too); each call's function gets a document of that collection (with its <c>@metadata</c>) and returns an
    /// object, an array of objects (one entry each) or null/undefined (no entry). The fields' paths are then read on each
    /// returned object instead of on the document (see <see cref="ScriptMaps.ScriptMapProgram"/>), and so are a map/reduce
    /// index's groups and aggregations. A map index's entries are keyed as fan-out entries (<see cref="FanOutKey"/>).
    /// </summary>
    public string? MapScript
    {
        get;
        init
        {
            if (value is null)
            {
                field = null;
                return;
            }
            if (ForEach is not null)
                throw new IndexDefinitionException($"MapScript of index '{Name}' cannot be combined with ForEach: its map returns the entries itself.");
            ScriptMaps.ScriptMapProgram.Validate(Name, value, Collections);
            field = value;
        }
    }

    /// <summary>Whether a document may have several entries (<see cref="ForEach"/> or <see cref="MapScript"/>), keyed by <see cref="FanOutKey"/>.</summary>
    public bool IsFanOut => ForEach is not null || (MapScript is not null && Reduce is null);

    /// <summary>What separates the document key from the element's number in a fan-out entry's key; no document id holds it.</summary>
    public const char FanOutSeparator = '\u001f';

    /// <summary>The key of the fan-out entry for element <paramref name="element"/> of the document keyed <paramref name="documentKey"/>.</summary>
    public static string FanOutKey(string documentKey, int element) => string.Concat(documentKey, FanOutSeparator.ToString(), element.ToString(System.Globalization.CultureInfo.InvariantCulture));

    /// <summary>The document key an entry key belongs to: the key itself, or a fan-out key's document key.</summary>
    public static string DocumentKeyOf(string entryKey)
    {
        var separator = entryKey.LastIndexOf(FanOutSeparator);
        return separator < 0 ? entryKey : entryKey[..separator];
    }

    /// <summary>This definition kept by <paramref name="engine"/> (a name of <see cref="Engines.SearchEngines"/>, any case).</summary>
    /// <exception cref="IndexDefinitionException">No engine has that name.</exception>
    public IndexDefinition WithSearchEngine(string engine)
    {
        if (!Engines.SearchEngines.TryGet(engine, out var named))
            throw new IndexDefinitionException(Engines.SearchEngines.UnknownMessage(engine));
        return Reduce is { } reduce
            ? new IndexDefinition(Name, Collections, reduce, OutputCollection) { SearchEngine = named.Name, MapScript = MapScript }
            : new IndexDefinition(Name, Collections, Fields) { SearchEngine = named.Name, ForEach = ForEach, MapScript = MapScript };
    }

    /// <summary>
    /// The collection a map/reduce index writes each group's result row to as a document (null: none). It
    /// belongs to the index: the documents follow the groups, and go when the index does.
    /// </summary>
    public string? OutputCollection { get; }

    /// <summary>Whether the server made this index for collection queries.</summary>
    public bool IsAuto => Name.StartsWith(AutoPrefix, StringComparison.OrdinalIgnoreCase);

    /// <summary>The search engine's schema for this definition.</summary>
    public IndexSchema ToSchema()
    {
        // Every index can also answer id() conditions next to its own fields.
        var schema = new IndexSchema().Add(IdField, FieldKind.Exact);
        foreach (var (name, field) in Fields)
        {
            if (field.Spatial is not null)
            {
                // Spatial terms are lower-case ASCII already; case-sensitive spares folding them.
                schema.Add(name, new FieldOptions(FieldKind.Exact, CaseSensitive: true));
                continue;
            }
            if (field.Search)
            {
                schema.Add(name, new FieldOptions(FieldKind.FullText, Analyzer: AnalyzerOf(field, FieldKind.FullText)));
                continue;
            }
            switch (field.Type)
            {
                case IndexFieldType.Long:
                    schema.Add(name, FieldKind.Long);
                    break;
                case IndexFieldType.Double:
                    schema.Add(name, FieldKind.Double);
                    break;
                case IndexFieldType.Auto:
                    schema.Add(name, new FieldOptions(FieldKind.Exact, field.CaseSensitive, AnalyzerOf(field, FieldKind.Exact)));
                    schema.Add(name + NumericSuffix, FieldKind.Double);
                    break;
                default:
                    schema.Add(name, new FieldOptions(FieldKind.Exact, field.CaseSensitive, AnalyzerOf(field, FieldKind.Exact)));
                    break;
            }
        }
        return schema;
    }

    /// <summary>The analyzer a field names, or null where it names none or its kind's default (so the defaults keep their behaviour, spellings included).</summary>
    private static Analysis.Analyzer? AnalyzerOf(IndexFieldDefinition field, FieldKind kind)
    {
        if (field.Analyzer is not { } name)
            return null;
        var analyzer = Analysis.NamedAnalyzers.Get(name, field.CaseSensitive);
        return analyzer == new FieldOptions(kind, field.CaseSensitive).EffectiveAnalyzer ? null : analyzer;
    }

    /// <summary>The name of the full-text twin of a field, which <c>search()</c> on the field reads where the field itself is exact.</summary>
    public static string SearchTwinName(string field) => $"search({field})";

    private static Dictionary<string, IndexFieldDefinition> RowFields(ReduceDefinition reduce)
    {
        var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
        foreach (var group in reduce.GroupBy)
        {
            var path = RowPath(group.Name);
            fields[group.Name] = new IndexFieldDefinition(path, IndexFieldType.Auto);
            fields[SearchTwinName(group.Name)] = new IndexFieldDefinition(path, Search: true);
        }
        foreach (var aggregation in reduce.Aggregations)
            fields[aggregation.Name] = new IndexFieldDefinition(RowPath(aggregation.Name), aggregation.Op == AggregationOp.Count ? IndexFieldType.Long : IndexFieldType.Double);
        return fields;
    }

    // A row's property is one name, whatever it holds: a group field named "a.b" is the property "a.b".
    private static FieldPath RowPath(string name) => FieldPath.Parse(FieldPath.Format([new PathSegment(name)]));

    /// <summary>Whether two definitions index the same thing (what decides if a PUT rebuilds).</summary>
    public bool SameAs(IndexDefinition other) => string.Equals(IndexDefinitionJson.ToJson(this), IndexDefinitionJson.ToJson(other), StringComparison.Ordinal);

    private void Validate()
    {
        if (string.IsNullOrWhiteSpace(Name))
            throw new IndexDefinitionException("An index needs a non-empty Name.");
        if (Name.Length > MaxNameLength)
            throw new IndexDefinitionException($"An index name may have at most {MaxNameLength} characters.");
        foreach (var c in Name)
        {
            if (char.IsControl(c))
                throw new IndexDefinitionException("An index name must not contain control characters.");
        }
        if (Collections.Count == 0)
            throw new IndexDefinitionException($"Index '{Name}' names no Collections.");
        if (Fields.Count == 0)
            throw new IndexDefinitionException($"Index '{Name}' has no Fields.");
        ValidateOutputCollection();
        foreach (var name in Fields.Keys)
        {
            if (string.IsNullOrWhiteSpace(name) || name.Length > MaxNameLength || name.EndsWith(NumericSuffix, StringComparison.Ordinal) || name == IdField)
                throw new IndexDefinitionException($"Field name '{name}' is empty, too long or ends with the reserved '{NumericSuffix}', or is the reserved '{IdField}'.");
        }
    }

    private void ValidateOutputCollection()
    {
        if (OutputCollection is not { } output)
            return;
        if (string.IsNullOrWhiteSpace(output) || System.Text.Encoding.UTF8.GetByteCount(output) > MaxOutputCollectionBytes || output.StartsWith('@'))
            throw new IndexDefinitionException($"OutputCollection must be a non-empty collection name of at most {MaxOutputCollectionBytes} bytes, not starting with '@'.");
        foreach (var c in output)
        {
            if (char.IsControl(c))
                throw new IndexDefinitionException("OutputCollection must not contain control characters.");
        }
        foreach (var collection in Collections)
        {
            // The index would read its own results back as documents and reduce them again, without end.
            if (string.Equals(collection, output, StringComparison.OrdinalIgnoreCase) || Documents.CollectionScope.IsAll(collection))
                throw new IndexDefinitionException($"OutputCollection '{output}' is one of the collections index '{Name}' reads; its results would be fed back into it.");
        }
    }
}
