using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;
using Folio.Indexing.Spatial;

namespace Folio.Indexing.Querying;

/// <summary>
/// <c>order by spatial.distance(field, spatial.point(lat, lng) [, roundFactor])</c>, alone or among field keys before and
/// after it: every match's nearest point read from the index, its great-circle distance in kilometres (rounded down to
/// the round factor), matches without a point last in either direction; the field keys compare the entry's first value
/// (numbers as numbers, text ordinally as indexed, entries without one last); remaining ties by entry.
/// </summary>
internal sealed class SpatialDistanceOrder
{
    private readonly string _field;
    private readonly double _latitude;
    private readonly double _longitude;
    private readonly double _round;
    private readonly bool _descending;
    // The order's keys in written order: null for the distance, otherwise an index field and its direction.
    private readonly List<(string? Field, bool Descending)> _keys;

    private SpatialDistanceOrder(string field, double latitude, double longitude, double round, bool descending, List<(string? Field, bool Descending)> keys)
    {
        _field = field;
        _latitude = latitude;
        _longitude = longitude;
        _round = round;
        _descending = descending;
        _keys = keys;
    }

    /// <summary>The distance order of <paramref name="query"/>; null when it orders otherwise.</summary>
    public static SpatialDistanceOrder? Create(RqlQuery query, QueryCompiler compiler)
    {
        var at = query.OrderBy.ToList().FindIndex(static o => o.Distance is not null);
        if (at < 0)
            return null;
        var distance = query.OrderBy[at].Distance!;
        var keys = new List<(string? Field, bool Descending)>(query.OrderBy.Count);
        for (var i = 0; i < query.OrderBy.Count; i++)
        {
            var order = query.OrderBy[i];
            if (i == at)
            {
                keys.Add((null, order.Descending));
                continue;
            }
            if (order.Distance is not null || order.Field is null || order.Type is RqlOrderType.Random or RqlOrderType.AlphaNumeric)
                throw new RqlParseException("Besides spatial.distance(), an order by takes only fields as keys (no second distance, score(), random() or alphanumeric)", order.Position);
            keys.Add((compiler.IndexField(order.Field, numeric: order.Type is RqlOrderType.Long or RqlOrderType.Double), order.Descending));
        }
        var field = compiler.SpatialIndexField(distance.Field);
        var latitude = compiler.Number(distance.Latitude, "latitude of spatial.point()");
        var longitude = compiler.Number(distance.Longitude, "longitude of spatial.point()");
        if (latitude is < -90 or > 90)
            throw new RqlParseException($"The latitude of spatial.point() must be between -90 and 90, not {latitude}", distance.Latitude.Position);
        if (longitude is < -180 or > 180)
            throw new RqlParseException($"The longitude of spatial.point() must be between -180 and 180, not {longitude}", distance.Longitude.Position);
        var round = distance.RoundFactor is null ? 0 : compiler.Number(distance.RoundFactor, "round factor of spatial.distance()");
        if (round < 0)
            throw new RqlParseException($"The round factor of spatial.distance() must be 0 or more, not {round}", distance.RoundFactor!.Position);
        return new SpatialDistanceOrder(field, latitude, longitude, round, query.OrderBy[at].Descending, keys);
    }

    /// <summary>The page <paramref name="skip"/>..+<paramref name="take"/> of the matches of <paramref name="where"/> by distance, and how many matched.</summary>
    public List<SpatialHit> Page(IEngineSearcher searcher, Query where, int skip, int take, out long total)
    {
        var rows = new List<(double Key, long Entry, double Distance, double Lat, double Lng, FieldValue?[] Values)>();
        var matches = searcher.Iterate(where);
        while (matches.MoveNext())
        {
            var entry = matches.Current;
            var (distance, lat, lng) = Nearest(searcher.GetValues(_field, entry));
            var key = double.IsNaN(distance) ? double.NaN : _round > 0 ? Math.Floor(distance / _round) * _round : distance;
            var values = new FieldValue?[_keys.Count];
            for (var k = 0; k < _keys.Count; k++)
            {
                if (_keys[k].Field is { } keyField && searcher.GetValues(keyField, entry) is [var first, ..] && first.Type != FieldValueType.Null)
                    values[k] = first;
            }
            rows.Add((key, entry, distance, lat, lng, values));
        }
        total = rows.Count;
        var descending = _descending;
        var keys = _keys;
        rows.Sort((a, b) =>
        {
            for (var k = 0; k < keys.Count; k++)
            {
                int order;
                if (keys[k].Field is null)
                {
                    // Matches without a point go last whichever the direction.
                    if (double.IsNaN(a.Key) || double.IsNaN(b.Key))
                        order = double.IsNaN(a.Key) == double.IsNaN(b.Key) ? 0 : double.IsNaN(a.Key) ? 1 : -1;
                    else
                        order = descending ? b.Key.CompareTo(a.Key) : a.Key.CompareTo(b.Key);
                }
                else
                {
                    order = CompareValues(a.Values[k], b.Values[k], keys[k].Descending);
                }
                if (order != 0)
                    return order;
            }
            return a.Entry.CompareTo(b.Entry);
        });
        var page = new List<SpatialHit>(Math.Max(0, Math.Min(take, rows.Count - skip)));
        for (var i = skip; i < rows.Count && page.Count < take; i++)
        {
            var row = rows[i];
            page.Add(new SpatialHit(searcher.GetKey(row.Entry), row.Distance, row.Lat, row.Lng));
        }
        return page;
    }

    // Numbers before text, numbers by value, text ordinally; entries without a value last in either direction.
    private static int CompareValues(FieldValue? a, FieldValue? b, bool descending)
    {
        if (a is not { } x || b is not { } y)
            return a is null == b is null ? 0 : a is null ? 1 : -1;
        var xNumber = x.Type is FieldValueType.Long or FieldValueType.Double;
        var yNumber = y.Type is FieldValueType.Long or FieldValueType.Double;
        int order;
        if (xNumber && yNumber)
            order = x.Type == FieldValueType.Long && y.Type == FieldValueType.Long ? x.Long.CompareTo(y.Long) : x.Double.CompareTo(y.Double);
        else if (xNumber != yNumber)
            order = xNumber ? -1 : 1;
        else
            order = string.CompareOrdinal(x.Text, y.Text);
        return descending ? -order : order;
    }

    private (double Distance, double Lat, double Lng) Nearest(List<Search.FieldValue>? values)
    {
        var best = (double.NaN, double.NaN, double.NaN);
        if (values is null)
            return best;
        foreach (var value in values)
        {
            if (value.Text is not { } text || !SpatialTerm.TryDecode(text, out var lat, out var lng))
                continue;
            var distance = GeoMath.DistanceKm(_latitude, _longitude, lat, lng);
            if (double.IsNaN(best.Item1) || distance < best.Item1)
                best = (distance, lat, lng);
        }
        return best;
    }
}

/// <summary>A match of a distance-ordered query: its key, and its nearest point and that point's distance in kilometres (NaN without a point).</summary>
internal readonly record struct SpatialHit(string Key, double Distance, double Latitude, double Longitude);
