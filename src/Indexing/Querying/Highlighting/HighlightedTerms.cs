using Folio.Indexing.Analysis;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying.Highlighting;

/// <summary>
/// What a query matched in one full-text field, as the field's analysis sees tokens: the terms of its searches and
/// phrases, the fuzzy terms (every token within their edits; the 50-term cap of the search itself is not applied), and
/// prefixes and wildcards. Read from the engine-neutral query tree and the field's analyzer alone, so every engine
/// highlights the same tokens. Negated clauses match nothing worth marking and are left out.
/// </summary>
internal sealed class HighlightedTerms
{
    private readonly HashSet<string> _terms = new(StringComparer.Ordinal);
    private readonly List<FuzzyTermMatcher> _fuzzy = [];
    private readonly List<string> _prefixes = [];
    private readonly List<string> _infixes = [];
    private readonly List<string> _suffixes = [];

    private HighlightedTerms(string field, Analyzer analyzer)
    {
        Field = field;
        Analyzer = analyzer;
    }

    /// <summary>The index field.</summary>
    public string Field { get; }

    /// <summary>The field's analyzer, which splits a document's text into the tokens compared.</summary>
    public Analyzer Analyzer { get; }

    /// <summary>Whether the query matches anything in the field at all.</summary>
    public bool IsEmpty => _terms.Count == 0 && _fuzzy.Count == 0 && _prefixes.Count == 0 && _infixes.Count == 0 && _suffixes.Count == 0;

    /// <summary>The terms <paramref name="query"/> looks for in <paramref name="field"/> of an index of <paramref name="schema"/>.</summary>
    public static HighlightedTerms Of(Query query, string field, IndexSchema schema)
    {
        var terms = new HighlightedTerms(field, schema.Get(field).EffectiveAnalyzer);
        terms.Collect(query);
        return terms;
    }

    /// <summary>Whether an analyzed token of the field is one the query matched.</summary>
    public bool Matches(string term)
    {
        if (_terms.Contains(term))
            return true;
        foreach (var fuzzy in _fuzzy)
        {
            if (fuzzy.TryMatch(term.AsSpan(), out _, out _))
                return true;
        }
        foreach (var prefix in _prefixes)
        {
            if (term.StartsWith(prefix, StringComparison.Ordinal))
                return true;
        }
        foreach (var infix in _infixes)
        {
            if (term.Contains(infix, StringComparison.Ordinal))
                return true;
        }
        foreach (var suffix in _suffixes)
        {
            if (term.EndsWith(suffix, StringComparison.Ordinal))
                return true;
        }
        return false;
    }

    private void Collect(Query query)
    {
        switch (query)
        {
            case FullTextQuery fullText when fullText.Field == Field:
                AddAnalyzed(fullText.Text);
                break;
            case PhraseQuery phrase when phrase.Field == Field:
                AddAnalyzed(phrase.Phrase);
                break;
            case FuzzyQuery fuzzy when fuzzy.Field == Field:
                foreach (var token in Analyzer.AnalyzeToList(fuzzy.Text))
                    _fuzzy.Add(new FuzzyTermMatcher(token.Term, fuzzy.MaxEdits));
                break;
            case PrefixQuery prefix when prefix.Field == Field:
                _prefixes.Add(Normalized(prefix.Prefix));
                break;
            case WildcardQuery wildcard when wildcard.Field == Field:
                var core = Normalized(wildcard.Pattern.Trim('*'));
                var leading = wildcard.Pattern.StartsWith('*');
                var trailing = wildcard.Pattern.Length > 1 && wildcard.Pattern.EndsWith('*');
                if (leading && trailing)
                    _infixes.Add(core);
                else if (leading)
                    _suffixes.Add(core);
                else if (trailing)
                    _prefixes.Add(core);
                else
                    _terms.Add(core);
                break;
            case BoostQuery boost:
                Collect(boost.Clause);
                break;
            case AndQuery and:
                foreach (var must in and.Must)
                    Collect(must);
                break;
            case OrQuery or:
                foreach (var should in or.Should)
                    Collect(should);
                break;
        }
    }

    private void AddAnalyzed(string text)
    {
        foreach (var token in Analyzer.AnalyzeToList(text))
            _terms.Add(token.Term);
    }

    /// <summary>A prefix or wildcard's text as full-text terms compare with it: lower case, folded, not stemmed.</summary>
    private static string Normalized(string text) => AsciiFolding.Fold(text.ToLowerInvariant());
}
