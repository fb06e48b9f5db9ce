using System.Text.Unicode;
using Folio.Indexing.Engines;

namespace Folio.Indexing.Search;

// The walk of a field's text terms (suggestions): one pass over the field's term dictionary, each whole term's
// document frequency read from its postings header; while a full-text field's postings still hold dead entries
// (DeadEntries), a wanted term's live entries are counted from its postings instead, and a term only they had is left out.
public sealed partial class IndexSearcher
{
    /// <inheritdoc/>
    public void WalkTerms(string field, ITermWalker walker)
    {
        ArgumentNullException.ThrowIfNull(walker);
        var options = _index.Schema.Get(field);
        var reader = Field(field);
        if (reader.Terms is null || options.Kind is not (FieldKind.Exact or FieldKind.FullText))
            return;
        var cursor = reader.Terms.CreateCursor();
        var dead = DeadIn(field);
        // Reused for every term's bytes, as the fuzzy walk does.
        var term = _scratch.WalkTerm;
        var walked = 0;
        var more = cursor.First();
        while (more)
        {
            if ((++walked & CancellationStride) == 0)
                Guard.Check();
            var key = cursor.Key;
            if (key.Length > term.Length)
                term = new byte[key.Length];
            if (!TermEncoding.TryDecodeKey(key, term, out var termLength, out var termKeyLength))
                throw new Folio.Storage.CorruptionException($"The terms of field '{field}' hold a key that is not a term.");
            var bytes = term.AsSpan(0, termLength);
            // Chunk keys follow their term's key; spelling variants start with 0xFF and numbers are no UTF-8 text.
            if (termKeyLength == key.Length && !SpellingVariant.IsVariant(bytes) && !TermEncoding.IsShortened(bytes)
                && Utf8.IsValid(bytes) && walker.Wants(bytes))
            {
                var frequency = dead is null ? PostingStore.DocumentFrequency(cursor.Value) : CountLiveEntries(reader, dead, key, cursor.Value);
                if (frequency > 0)
                    walker.Add(bytes, frequency);
            }
            more = cursor.MoveNext();
        }
        _scratch.WalkTerm = term;
    }
}
