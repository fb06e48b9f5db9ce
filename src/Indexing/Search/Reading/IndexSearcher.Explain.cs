using System.Globalization;
using System.Text;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// Explanations: each clause of the query compiled on its own and moved to the entry, which tells whether the clause
// matches it and with what score; full-text clauses go on to each term's BM25 part.
public sealed partial class IndexSearcher
{
    /// <inheritdoc/>
    public string Explain(Query query, long entryId)
    {
        ArgumentNullException.ThrowIfNull(query);
        var text = new StringBuilder();
        Explain(query, entryId, 0, text);
        return text.ToString().TrimEnd();
    }

    private void Explain(Query query, long entryId, int depth, StringBuilder text)
    {
        var (matches, score) = ScoreOf(query.Accept(this), entryId);
        text.Append(' ', depth * 2).Append(score.ToString("0.######", CultureInfo.InvariantCulture)).Append(" = ");
        if (!matches)
            text.Append("no match: ");
        text.Append(Describe(query)).Append('\n');
        switch (query)
        {
            case AndQuery and:
                foreach (var must in and.Must)
                    Explain(must, entryId, depth + 1, text);
                foreach (var not in and.MustNot)
                {
                    text.Append(' ', (depth + 1) * 2).Append("not:\n");
                    Explain(not, entryId, depth + 2, text);
                }
                break;
            case OrQuery or:
                foreach (var should in or.Should)
                    Explain(should, entryId, depth + 1, text);
                break;
            case NotQuery not:
                Explain(not.Clause, entryId, depth + 1, text);
                break;
            case BoostQuery boost:
                Explain(boost.Clause, entryId, depth + 1, text);
                break;
            case FullTextQuery fullText:
                foreach (var term in AnalyzeDistinct(fullText.Field, fullText.Text))
                {
                    var scorer = Scorer(fullText.Field, term);
                    var (termMatches, termScore) = scorer is null ? (false, 0f) : ScoreOf(scorer, entryId);
                    text.Append(' ', (depth + 1) * 2).Append(termScore.ToString("0.######", CultureInfo.InvariantCulture)).Append(" = ")
                        .Append(termMatches ? "BM25 of " : "no match: ").Append(fullText.Field).Append(':').Append(Encoding.UTF8.GetString(term)).Append('\n');
                }
                break;
        }
    }

    private static (bool Matches, float Score) ScoreOf(DocIdIterator iterator, long entryId) =>
        iterator.Advance(entryId) && iterator.Current == entryId ? (true, iterator.Score) : (false, 0f);

    private static string Describe(Query query) => query switch
    {
        MatchAllQuery => "every entry",
        TermQuery term => $"{term.Field} = {term.Value}",
        TermsInQuery terms => $"{terms.Field} in ({string.Join(", ", terms.Values)})",
        RangeQuery range => $"{range.Field} in {(range.LowerInclusive ? '[' : '(')}{range.Lower?.ToString() ?? "*"}, {range.Upper?.ToString() ?? "*"}{(range.UpperInclusive ? ']' : ')')}",
        PrefixQuery prefix => $"startsWith({prefix.Field}, {prefix.Prefix})",
        WildcardQuery wildcard => $"{wildcard.Field} like {wildcard.Pattern}",
        RegexQuery regex => $"regex({regex.Field}, {regex.Regex})",
        ExistsQuery exists => $"exists({exists.Field})",
        FullTextQuery fullText => $"search({fullText.Field}, {fullText.Text}{(fullText.RequireAll ? ", and" : "")}), sum of:",
        PhraseQuery phrase => $"phrase({phrase.Field}, \"{phrase.Phrase}\"~{phrase.Slop})",
        FuzzyQuery fuzzy => $"fuzzy({fuzzy.Field}, {fuzzy.Text}~{fuzzy.MaxEdits})",
        BoostQuery boost => $"boost ×{boost.Factor.ToString(CultureInfo.InvariantCulture)} of:",
        AndQuery => "and, sum of:",
        OrQuery => "or, sum of:",
        NotQuery => "not:",
        _ => query.GetType().Name,
    };
}
