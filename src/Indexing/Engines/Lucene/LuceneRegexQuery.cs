using System.Text;
using System.Text.RegularExpressions;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// The terms of a field that a .NET regular expression finds a match in (Lucene's own <c>RegexpQuery</c> speaks another
/// dialect, and Folio's engine runs .NET's): a multi-term query over a filtered walk of every term.
/// </summary>
internal sealed class LuceneRegexQuery(string field, Regex regex) : MultiTermQuery(field)
{
    protected override TermsEnum GetTermsEnum(Terms terms, AttributeSource atts) => new RegexTermsEnum(terms.GetEnumerator(), regex);

    public override string ToString(string field) => $"{Field}:/{regex}/";

    public override bool Equals(object? obj) => obj is LuceneRegexQuery other && base.Equals(other) && other.Pattern == Pattern;

    public override int GetHashCode() => HashCode.Combine(base.GetHashCode(), Pattern);

    private string Pattern => regex.ToString();

    private sealed class RegexTermsEnum(TermsEnum terms, Regex regex) : FilteredTermsEnum(terms, startWithSeek: false)
    {
        protected override AcceptStatus Accept(BytesRef term) =>
            regex.IsMatch(Encoding.UTF8.GetString(term.Bytes, term.Offset, term.Length)) ? AcceptStatus.YES : AcceptStatus.NO;
    }
}
