using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying;

/// <summary><c>lucene(field, 'text')</c>: a text in Lucene's classic syntax, translated into the queries the other functions compile to.</summary>
internal sealed partial class QueryCompiler
{
    /// <summary>
    /// <c>lucene(F, 'text')</c>: words, phrases, wildcards and fuzzy words go to F's full-text field when the index has one
    /// (analyzed as that field's text), otherwise to its values; ranges and exact terms (<c>lucene(F, 'text', true)</c>)
    /// go to its values, as numbers when they read as numbers. A <c>Field:</c> inside the text names another field of the index.
    /// </summary>
    private Query Lucene(RqlFunction function, string text)
    {
        if (function.Field.Path is null)
            throw new QueryException("lucene() needs a field, not id().");
        var node = LuceneSyntax.Parse(text, function.Argument!.Position + 1, function.Argument is RqlLiteral);
        return LuceneQuery(node, function.Field, function.Exact);
    }

    /// <summary>
    /// The paths an auto index needs for <c>lucene()</c>: its field, and those a literal text names (<c>Other:term</c>);
    /// words go to full-text fields, ranges and exact terms to the values. A text that does not parse adds nothing here
    /// and is refused when compiled.
    /// </summary>
    private static void CollectLucene(RqlFunction lucene, FieldPath path, List<FieldPath> exact, List<FieldPath> search)
    {
        var paths = new List<FieldPath>();
        CollectLuceneFields(lucene, path, paths);
        foreach (var each in paths)
        {
            if (!lucene.Exact)
                search.Add(each);
            exact.Add(each);
        }
    }

    /// <summary>
    /// <c>lucene()</c>'s own field and those a literal text names (<c>Other:term</c>): the paths it reads, and with
    /// <c>exact = true</c> those whose case-sensitive twins an auto index keeps.
    /// </summary>
    private static void CollectLuceneFields(RqlFunction lucene, FieldPath path, List<FieldPath> paths)
    {
        paths.Add(path);
        if (lucene.Argument is not RqlLiteral { Value: string text })
            return;
        try
        {
            CollectLuceneFields(LuceneSyntax.Parse(text, 0, exact: false), paths);
        }
        catch (RqlParseException)
        {
            // Refused, with its position, when the query is compiled.
        }
    }

    private static void CollectLuceneFields(LuceneNode node, List<FieldPath> paths)
    {
        string? name;
        switch (node)
        {
            case LuceneGroup group:
                foreach (var (_, clause) in group.Clauses)
                    CollectLuceneFields(clause, paths);
                return;
            case LuceneBoost boost:
                CollectLuceneFields(boost.Inner, paths);
                return;
            case LuceneTerm term:
                name = term.Field;
                break;
            case LuceneRange range:
                name = range.Field;
                break;
            default:
                return;
        }
        if (name is null)
            return;
        try
        {
            paths.Add(FieldPath.Parse(name));
        }
        catch (FieldPathException)
        {
            // Refused with the query's other errors when it is compiled.
        }
    }

    private Query LuceneQuery(LuceneNode node, RqlField field, bool exact) => node switch
    {
        LuceneGroup group => LuceneGroupQuery(group, field, exact),
        LuceneBoost boost => new BoostQuery(LuceneQuery(boost.Inner, field, exact), boost.Factor),
        LuceneRange range => LuceneRangeQuery(range, LuceneField(range.Field, field)),
        LuceneTerm { Kind: LuceneTermKind.MatchAll } => MatchAllQuery.Instance,
        LuceneTerm term => LuceneTermQuery(term, LuceneField(term.Field, field), exact),
        _ => throw new QueryException($"lucene(): {node.GetType().Name} is not supported."),
    };

    /// <summary>
    /// Required clauses must all match and excluded ones must not; optional clauses match any of them when nothing is
    /// required. (Lucene also lets optional clauses beside required ones raise the score; here they are left out.) A
    /// group of excluded clauses alone matches every other entry, at any depth, where Lucene's would match nothing below
    /// the top: <c>a OR (-b)</c> reads as "a, or anything but b".
    /// </summary>
    private Query LuceneGroupQuery(LuceneGroup group, RqlField field, bool exact)
    {
        var must = new List<Query>();
        var should = new List<Query>();
        var mustNot = new List<Query>();
        foreach (var (occur, node) in group.Clauses)
        {
            var query = LuceneQuery(node, field, exact);
            (occur switch { LuceneOccur.Must => must, LuceneOccur.MustNot => mustNot, _ => should }).Add(query);
        }
        if (must.Count == 0)
            must.Add(should.Count switch { 0 => MatchAllQuery.Instance, 1 => should[0], _ => new OrQuery(should) });
        return must.Count == 1 && mustNot.Count == 0 ? must[0] : new AndQuery(must, mustNot);
    }

    private Query LuceneTermQuery(LuceneTerm term, RqlField field, bool exact)
    {
        // An auto index's search(F) exists only when a query asked for it; a text from a parameter may name a field it lacks.
        var fullText = !exact && TrySearchField(field, out var searchField) && definition.Fields.ContainsKey(searchField) ? searchField : null;
        // Terms as written: the field's case-sensitive values (an auto index's exact(F) twin; a static field declared so).
        var values = fullText is null && exact && !IsStaticNumber(field) ? CaseSensitiveField(field, field.Position) : null;
        switch (term.Kind)
        {
            case LuceneTermKind.Phrase:
                return fullText is not null ? new PhraseQuery(fullText, term.Text, (int)term.Number) : new TermQuery(values ?? IndexField(field, numeric: false), FieldValue.From(term.Text));
            case LuceneTermKind.Fuzzy:
                var edits = term.Number < 1 && term.Number > 0 ? FuzzyQuery.EditsOfFactor(term.Number, term.Text.EnumerateRunes().Count()) : (int)term.Number;
                return new FuzzyQuery(fullText ?? values ?? IndexField(field, numeric: false), term.Text, edits);
            case LuceneTermKind.Wildcard:
                return Wildcard(fullText ?? values ?? IndexField(field, numeric: false), term.Text, caseSensitive: values is not null);
            default:
                if (fullText is not null)
                    return new FullTextQuery(fullText, term.Text);
                if (values is not null)
                    return new TermQuery(values, FieldValue.From(term.Text));
                var value = HoldsNumbers(field) ? LuceneValue(term.Text) : FieldValue.From(term.Text);
                return new TermQuery(IndexField(field, IsNumber(value)), value);
        }
    }

    /// <summary>
    /// Whether a term that reads as a number is one for <paramref name="field"/>: an auto index keeps every field's numbers
    /// in a twin; a static field holds numbers when declared Long, Double or Auto. A static text field's "01234" stays text.
    /// </summary>
    private bool IsStaticNumber(RqlField field) =>
        !definition.IsAuto && definition.Fields.TryGetValue(field.Name, out var defined) && defined.Type is IndexFieldType.Long or IndexFieldType.Double;

    private bool HoldsNumbers(RqlField field) =>
        definition.IsAuto || (definition.Fields.TryGetValue(field.Name, out var defined) && defined.Type is IndexFieldType.Long or IndexFieldType.Double or IndexFieldType.Auto);

    /// <summary>
    /// A pattern with <c>*</c> only at its ends is a wildcard query; one with <c>?</c> or a <c>*</c> inside becomes the
    /// regular expression it stands for, over the field's terms.
    /// </summary>
    private static Query Wildcard(string field, string pattern, bool caseSensitive)
    {
        var inner = pattern.AsSpan().Trim('*');
        if (inner.Length > 0 && inner.IndexOfAny('*', '?') < 0)
            return new WildcardQuery(field, pattern);
        var regex = new StringBuilder("^");
        foreach (var c in pattern)
            regex.Append(c switch { '*' => ".*", '?' => ".", _ => System.Text.RegularExpressions.Regex.Escape(c.ToString()) });
        regex.Append('$');
        var options = RegexOptions.CultureInvariant | RegexOptions.NonBacktracking | (caseSensitive ? RegexOptions.None : RegexOptions.IgnoreCase);
        return new RegexQuery(field, new System.Text.RegularExpressions.Regex(regex.ToString(), options, RegexTimeout));
    }

    private Query LuceneRangeQuery(LuceneRange range, RqlField field)
    {
        if (range.Lower is null && range.Upper is null)
            return new ExistsQuery(IndexField(field, numeric: false));
        FieldValue? lower = range.Lower is null ? null : LuceneValue(range.Lower);
        FieldValue? upper = range.Upper is null ? null : LuceneValue(range.Upper);
        // Numbers compare as numbers only when every bound given is one and the field holds numbers; "a" to "9" compares as text.
        var numeric = HoldsNumbers(field) && (lower is not { } l || IsNumber(l)) && (upper is not { } u || IsNumber(u));
        if (!numeric)
        {
            lower = range.Lower is null ? null : FieldValue.From(range.Lower);
            upper = range.Upper is null ? null : FieldValue.From(range.Upper);
        }
        return new RangeQuery(IndexField(field, numeric), lower, range.LowerInclusive, upper, range.UpperInclusive);
    }

    private static FieldValue LuceneValue(string text)
    {
        if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var integer))
            return FieldValue.From(integer);
        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var real) && double.IsFinite(real))
            return FieldValue.From(real);
        return FieldValue.From(text);
    }

    /// <summary>
    /// The field a term of the text names: <paramref name="defaultField"/> without a <c>Field:</c>, otherwise that field,
    /// which an auto index must have (it holds only the fields its queries asked for).
    /// </summary>
    private RqlField LuceneField(string? name, RqlField defaultField)
    {
        if (name is null)
            return defaultField;
        FieldPath path;
        try
        {
            path = FieldPath.Parse(name);
        }
        catch (FieldPathException e)
        {
            throw new QueryException($"lucene(): '{name}' is not a field name: {e.Message}");
        }
        var field = new RqlField(path, defaultField.Position);
        if (definition.IsAuto && definition.Reduce is null
            && !definition.Fields.ContainsKey(AutoIndexNaming.FieldName(path)) && !definition.Fields.ContainsKey(AutoIndexNaming.SearchFieldName(path)))
            throw new QueryException($"lucene(): auto index '{definition.Name}' has no field '{name}', which a text passed as a parameter cannot add; write the text in the query, or query {name} with its own condition.");
        return field;
    }
}
