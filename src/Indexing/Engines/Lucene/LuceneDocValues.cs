using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Search;
using Lucene.Net.Index;
using Lucene.Net.Util;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>A field's doc values on a <see cref="LuceneSearcher"/>: the binary doc value per entry holds them as a block does.</summary>
internal sealed class LuceneDocValues(LuceneSearcher searcher, string field) : IDocValues
{
    private readonly BinaryDocValues?[] _values = searcher.FieldValues(field);

    /// <inheritdoc/>
    public void Read(ReadOnlySpan<long> entryIds, DocValuesBlock values)
    {
        values.Clear();
        foreach (var entryId in entryIds)
        {
            var encoded = searcher.Read(_values, entryId);
            if (encoded.IsEmpty)
                values.EndEntry();
            else
                values.AddEntry(encoded);
        }
    }

    /// <inheritdoc/>
    public byte[]? Encode(FieldValue value)
    {
        var options = searcher.Schema.Get(field);
        return options.Kind == FieldKind.Exact && value.Type != FieldValueType.Null
            ? Encoding.UTF8.GetBytes(options.NormalizeExact(value.ToString()))
            : FieldTerms.EqualityTerm(searcher.Schema, field, value);
    }

    /// <inheritdoc/>
    /// <remarks>Counted as Folio's engine counts: entries spelling the value otherwise, per spelling, against those spelling it as it is.</remarks>
    public string? Spelling(ReadOnlySpan<byte> value)
    {
        if (searcher.Schema.Get(field) is not { Kind: FieldKind.Exact, CaseSensitive: false, Analyzer: null } || value.Length > TermEncoding.MaxTermBytes)
            return null;
        var prefix = new byte[value.Length + 1];
        value.CopyTo(prefix);
        var spellingField = LuceneFields.Spellings(field);
        byte[]? best = null;
        long bestCount = 0, spelledOtherwise = 0;
        // Terms repeat across segments: count each spelling once over the whole snapshot.
        foreach (var spelling in Spellings(spellingField, prefix))
        {
            var count = searcher.LiveDocumentFrequency(spellingField, new BytesRef(spelling));
            if (count == 0)
                continue;
            spelledOtherwise += count;
            var spelled = spelling.AsSpan(prefix.Length);
            if (best is null || count > bestCount || (count == bestCount && spelled.SequenceCompareTo(best) < 0))
                (best, bestCount) = (spelled.ToArray(), count);
        }
        if (best is null)
            return null;
        var asIs = searcher.LiveDocumentFrequency(field, new BytesRef(value.ToArray())) - spelledOtherwise;
        return asIs > bestCount || (asIs == bestCount && value.SequenceCompareTo(best) < 0) ? null : Encoding.UTF8.GetString(best);
    }

    /// <summary>The distinct spelling terms that start with <paramref name="prefix"/>, in every segment.</summary>
    private SortedSet<byte[]> Spellings(string spellingField, byte[] prefix)
    {
        var found = new SortedSet<byte[]>(Comparer<byte[]>.Create(static (a, b) => a.AsSpan().SequenceCompareTo(b)));
        foreach (var leaf in searcher.Leaves)
        {
            var terms = leaf.AtomicReader.GetTerms(spellingField);
            if (terms is null)
                continue;
            var walk = terms.GetEnumerator();
            if (walk.SeekCeil(new BytesRef(prefix)) == TermsEnum.SeekStatus.END)
                continue;
            do
            {
                var term = walk.Term;
                var bytes = term.Bytes.AsSpan(term.Offset, term.Length);
                if (!bytes.StartsWith(prefix))
                    break;
                found.Add(bytes.ToArray());
            }
            while (walk.MoveNext());
        }
        return found;
    }
}
