using System.Text;
using System.Text.Json;
using Folio.Indexing.Engines;
using Folio.Indexing.MapReduce;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;
using Folio.Indexing.Documents;
using Folio.Storage.Documents;

namespace Folio.Indexing.Querying;

/// <summary>
/// Queries whose page can only be cut once every match is known: <c>select distinct</c> (paging counts distinct rows),
/// <c>order by random()</c> and orders with an <c>alphanumeric</c> key (orders no index keeps). The runner takes every
/// match, orders it itself, and pages the result, so such a query costs time and memory in proportion to its matches.
/// </summary>
public sealed partial class QueryRunner
{
    private static bool NeedsAllMatches(RqlQuery query)
    {
        if (query.Distinct)
            return true;
        foreach (var order in query.OrderBy)
        {
            if (order.Type is RqlOrderType.Random or RqlOrderType.AlphaNumeric)
                return true;
        }
        return false;
    }

    /// <summary>A collection read directly (no where, or id() lookups) with <c>distinct</c> or <c>random()</c>.</summary>
    private void AnswerDirectAllMatches(RqlQuery query, string collection, List<string>? ids, QueryOptions options, int skip, int take, QueryResult result)
    {
        using var reader = store.OpenReader();
        result.IndexName = ids is null ? "collection/" + collection : "document";
        result.IndexEtag = reader.LastEtag;
        var matches = new List<Match>();
        if (ids is null)
        {
            var cursor = CollectionScope.Cursor(reader, collection);
            while (cursor.MoveNext())
                matches.Add(new Match(cursor.Current.IdString, -1));
        }
        else
        {
            foreach (var id in ids)
            {
                if (reader.TryGet(id, out var document) && CollectionScope.Contains(collection, document.CollectionString))
                    matches.Add(new Match(document.IdString, -1));
            }
        }
        result.Timings?.PlanDone();
        Answer(query, new MatchSource(reader, null, null, null, options.Parameters), matches, skip, take, result);
    }

    /// <summary>Every match of <paramref name="source"/>'s condition, ordered, made distinct when asked, and paged.</summary>
    private void AnswerFromAllMatches(RqlQuery query, MatchSource source, int skip, int take, QueryResult result)
    {
        var page = source.Searcher!.Search(source.Where!, 0, int.MaxValue);
        var matches = new List<Match>(page.Hits.Count);
        var hits = page.Hits;
        for (var i = 0; i < hits.Count; i++)
            matches.Add(new Match(hits[i].Key, hits[i].EntryId));
        Answer(query, source, matches, skip, take, result);
    }

    private void Answer(RqlQuery query, MatchSource source, List<Match> matches, int skip, int take, QueryResult result)
    {
        MatchOrder.Sort(query, source, matches);
        result.Timings?.QueryDone();
        if (!query.Distinct)
        {
            result.TotalResults = matches.Count;
            for (var i = skip; i < matches.Count && result.Results.Count < take; i++)
                AddMatch(query, source, matches[i], result, distinctRows: null);
            return;
        }
        var rows = new HashSet<string>(StringComparer.Ordinal);
        var distinct = 0;
        foreach (var match in matches)
        {
            var count = rows.Count;
            // Past the page, the rows only need counting.
            AddMatch(query, source, match, distinct >= skip && result.Results.Count < take ? result : null, rows);
            if (rows.Count > count)
                distinct++;
        }
        result.TotalResults = distinct;
    }

    /// <summary>
    /// Loads a match and adds it to <paramref name="result"/> (when not null); with <paramref name="distinctRows"/>, only
    /// when its projection (without the document's id) is not among them, where it is then added.
    /// </summary>
    private static void AddMatch(RqlQuery query, MatchSource source, Match match, QueryResult? result, HashSet<string>? distinctRows)
    {
        string? id;
        ReadOnlySpan<byte> json;
        if (source.Searcher is IRowSource rows)
        {
            if (!rows.TryGetRow(match.Key, out json))
                return;
            id = null;
        }
        else
        {
            if (!source.Reader.TryGet(match.Key, out var document))
                return;
            json = document.Json;
            id = document.IdString;
        }
        var timings = result?.Timings;
        timings?.LoadDone();
        if (distinctRows is not null)
        {
            var projected = Project(query, json, null);
            if (!distinctRows.Add(Encoding.UTF8.GetString(projected)) || result is null)
                return;
            result.Results.Add(projected);
            AddIncludes(query, source.Reader, json, result);
        }
        else if (result is not null)
        {
            AddResult(query, source.Reader, json, id, result, null);
        }
        if (result is null)
            return;
        if (result.Explanations is { } explanations && source.Searcher is { } searcher && match.EntryId >= 0)
            explanations.TryAdd(match.Key, [searcher.Explain(source.Where!, match.EntryId)]);
        timings?.ProjectionDone();
    }

    /// <summary>Where matches are read from: the documents, and the index searcher with the compiled condition (null for a direct read).</summary>
    private readonly record struct MatchSource(DocumentReader Reader, IEngineSearcher? Searcher, Query? Where, QueryCompiler? Compiler, JsonElement? Parameters);

    /// <summary>One match: its key (a document id, or a map/reduce row's key) and its entry id in the searcher (-1 for a direct read).</summary>
    private readonly record struct Match(string Key, long EntryId);

    /// <summary>The orders the runner applies itself: a seeded shuffle, and keys compared with alphanumeric ones.</summary>
    private static class MatchOrder
    {
        public static void Sort(RqlQuery query, MatchSource source, List<Match> matches)
        {
            if (query.OrderBy is [{ Type: RqlOrderType.Random } random])
            {
                Shuffle(random, source.Parameters, matches);
                return;
            }
            if (query.OrderBy.Count == 0)
                return;
            var keys = new SortKey[query.OrderBy.Count];
            for (var k = 0; k < keys.Length; k++)
            {
                var order = query.OrderBy[k];
                // score(), random() beside other keys and spatial.distance() name no field to read here.
                if (order.Field is not { } ordered)
                    throw new QueryException("With select distinct or an alphanumeric order, a query sorts by fields only: order by score(), random() beside other keys or spatial.distance() cannot be combined with them yet.");
                var numeric = order.Type is RqlOrderType.Long or RqlOrderType.Double;
                var field = source.Compiler!.IndexField(ordered, numeric);
                keys[k] = new SortKey(order.Type == RqlOrderType.AlphaNumeric, order.Descending, new FieldValue?[matches.Count]);
                for (var i = 0; i < matches.Count; i++)
                    keys[k].Values[i] = Smallest(source.Searcher!.GetValues(field, matches[i].EntryId), keys[k].AlphaNumeric);
            }
            var positions = new int[matches.Count];
            for (var i = 0; i < positions.Length; i++)
                positions[i] = i;
            // Ties go to the entry id, as the engines' own sorts do.
            Array.Sort(positions, (a, b) =>
            {
                foreach (var key in keys)
                {
                    var compared = Compare(key.Values[a], key.Values[b], key.AlphaNumeric);
                    if (compared != 0)
                        return key.Descending ? -compared : compared;
                }
                return matches[a].EntryId.CompareTo(matches[b].EntryId);
            });
            var sorted = new Match[matches.Count];
            for (var i = 0; i < positions.Length; i++)
                sorted[i] = matches[positions[i]];
            matches.Clear();
            matches.AddRange(sorted);
        }

        /// <summary>
        /// Orders by a hash of the seed and each match's key, so one seed gives one order on either engine and after any
        /// write that leaves the matches alone; without a seed, the seed is new every time.
        /// </summary>
        private static void Shuffle(RqlOrder random, JsonElement? parameters, List<Match> matches)
        {
            var seed = random.Seed is null ? Random.Shared.NextInt64().ToString(System.Globalization.CultureInfo.InvariantCulture)
                : ParameterValues.Resolve(random.Seed, parameters).ToString();
            var seedHash = Hash(seed, 0xcbf2_9ce4_8422_2325UL);
            var hashes = new ulong[matches.Count];
            for (var i = 0; i < hashes.Length; i++)
                hashes[i] = Mix(Hash(matches[i].Key, seedHash));
            var positions = new int[matches.Count];
            for (var i = 0; i < positions.Length; i++)
                positions[i] = i;
            Array.Sort(positions, (a, b) =>
            {
                var compared = hashes[a].CompareTo(hashes[b]);
                return compared != 0 ? compared : string.CompareOrdinal(matches[a].Key, matches[b].Key);
            });
            if (random.Descending)
                Array.Reverse(positions);
            var sorted = new Match[matches.Count];
            for (var i = 0; i < positions.Length; i++)
                sorted[i] = matches[positions[i]];
            matches.Clear();
            matches.AddRange(sorted);
        }

        /// <summary>FNV-1a over the text's UTF-16 code units (stable across processes, unlike string hash codes).</summary>
        private static ulong Hash(string text, ulong hash)
        {
            foreach (var c in text)
            {
                hash ^= c;
                hash *= 0x0100_0000_01b3UL;
            }
            return hash;
        }

        /// <summary>SplitMix64's finalizer: spreads FNV's nearby hashes of nearby keys over the whole range.</summary>
        private static ulong Mix(ulong z)
        {
            z = (z ^ (z >> 30)) * 0xbf58_476d_1ce4_e5b9UL;
            z = (z ^ (z >> 27)) * 0x94d0_49bb_1331_11ebUL;
            return z ^ (z >> 31);
        }

        /// <summary>The value a multi-valued field sorts by: its smallest (null for none, or only nulls).</summary>
        private static FieldValue? Smallest(List<FieldValue>? values, bool alphaNumeric)
        {
            if (values is null)
                return null;
            FieldValue? smallest = null;
            foreach (var value in values)
            {
                if (value.Type == FieldValueType.Null)
                    continue;
                if (smallest is not { } current || Compare(value, current, alphaNumeric) < 0)
                    smallest = value;
            }
            return smallest;
        }

        /// <summary>Missing values first, then numbers in order, then text (alphanumerically, or by code point).</summary>
        private static int Compare(FieldValue? a, FieldValue? b, bool alphaNumeric)
        {
            if (a is not { } x)
                return b is null ? 0 : -1;
            if (b is not { } y)
                return 1;
            var xNumber = x.Type is FieldValueType.Long or FieldValueType.Double;
            var yNumber = y.Type is FieldValueType.Long or FieldValueType.Double;
            if (xNumber && yNumber)
                return x.Type == FieldValueType.Long && y.Type == FieldValueType.Long ? x.Long.CompareTo(y.Long) : x.Double.CompareTo(y.Double);
            if (xNumber != yNumber)
                return xNumber ? -1 : 1;
            return alphaNumeric ? AlphaNumericComparer.Instance.Compare(x.ToString(), y.ToString()) : CompareUtf8(x.ToString(), y.ToString());
        }

        /// <summary>Text by its UTF-8 bytes, the order the engines keep terms in.</summary>
        private static int CompareUtf8(string a, string b) => Encoding.UTF8.GetBytes(a).AsSpan().SequenceCompareTo(Encoding.UTF8.GetBytes(b));

        private sealed record SortKey(bool AlphaNumeric, bool Descending, FieldValue?[] Values);
    }
}
