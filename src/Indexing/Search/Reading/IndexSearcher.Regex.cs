using System.Buffers;
using System.Text;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// Regular expressions: a walk over every term of the field, each decoded into one reused buffer rather than a string.
public sealed partial class IndexSearcher
{
    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(RegexQuery query)
    {
        var matcher = new RegexMatcher(query.Regex);
        try
        {
            // A shortened term keeps only its value's first bytes: its entries' whole values decide.
            return UnionOfTerms(query.Field, [], static (term, m) =>
                TermEncoding.IsShortened(term) ? TermVerdict.Verify : m.IsMatch(term) ? TermVerdict.Take : TermVerdict.Skip,
                matcher, static (value, m) => m.IsMatch(value));
        }
        finally
        {
            matcher.Release();
        }
    }

    /// <summary>Runs the expression over UTF-8 bytes through one pooled buffer of characters.</summary>
    private sealed class RegexMatcher(System.Text.RegularExpressions.Regex regex)
    {
        private char[] _chars = ArrayPool<char>.Shared.Rent(256);

        public bool IsMatch(ReadOnlySpan<byte> utf8)
        {
            var needed = Encoding.UTF8.GetMaxCharCount(utf8.Length);
            if (needed > _chars.Length)
            {
                ArrayPool<char>.Shared.Return(_chars);
                _chars = ArrayPool<char>.Shared.Rent(needed);
            }
            var length = Encoding.UTF8.GetChars(utf8, _chars);
            return regex.IsMatch(_chars.AsSpan(0, length));
        }

        public void Release() => ArrayPool<char>.Shared.Return(_chars);
    }
}
