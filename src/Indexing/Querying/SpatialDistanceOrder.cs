using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Spatial;

namespace Folio.Indexing.Querying;

/// <summary>
/// <c>order by spatial.distance(field, spatial.point(lat, lng) [, roundFactor])</c>: every match's nearest point read
/// from the index, its great-circle distance in kilometres (rounded down to the round factor), matches without a point
/// last in either direction, equal distances by entry.
/// </summary>
internal sealed class SpatialDistanceOrder
{
    private readonly string _field;
    private readonly double _latitude;
    private readonly double _longitude;
    private readonly double _round;
    private readonly bool _descending;

    private SpatialDistanceOrder(string field, double latitude, double longitude, double round, bool descending)
    {
        _field = field;
        _latitude = latitude;
        _longitude = longitude;
        _round = round;
        _descending = descending;
    }

    /// <summary>The distance order of <paramref name="query"/>; null when it orders otherwise.</summary>
    public static SpatialDistanceOrder? Create(RqlQuery query, QueryCompiler compiler)
    {
        if (query.OrderBy.Count == 0 || query.OrderBy[0].Distance is not { } distance)
            return null;
        if (query.OrderBy.Count > 1)
            throw new RqlParseException("order by spatial.distance() takes no further keys (Folio orders equal distances by index entry)", distance.Position);
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
        return new SpatialDistanceOrder(field, latitude, longitude, round, query.OrderBy[0].Descending);
    }

    /// <summary>The page <paramref name="skip"/>..+<paramref name="take"/> of the matches of <paramref name="where"/> by distance, and how many matched.</summary>
    public List<SpatialHit> Page(IEngineSearcher searcher, Query where, int skip, int take, out long total)
    {
        var rows = new List<(double Key, long Entry, double Distance, double Lat, double Lng)>();
        var matches = searcher.Iterate(where);
        while (matches.MoveNext())
        {
            var entry = matches.Current;
            var (distance, lat, lng) = Nearest(searcher.GetValues(_field, entry));
            var key = double.IsNaN(distance) ? double.NaN : _round > 0 ? Math.Floor(distance / _round) * _round : distance;
            rows.Add((key, entry, distance, lat, lng));
        }
        total = rows.Count;
        var descending = _descending;
        rows.Sort((a, b) =>
        {
            // Matches without a point go last whichever the direction.
            if (double.IsNaN(a.Key) || double.IsNaN(b.Key))
                return double.IsNaN(a.Key) == double.IsNaN(b.Key) ? a.Entry.CompareTo(b.Entry) : double.IsNaN(a.Key) ? 1 : -1;
            var order = descending ? b.Key.CompareTo(a.Key) : a.Key.CompareTo(b.Key);
            return order != 0 ? order : a.Entry.CompareTo(b.Entry);
        });
        var page = new List<SpatialHit>(Math.Max(0, Math.Min(take, rows.Count - skip)));
        for (var i = skip; i < rows.Count && page.Count < take; i++)
        {
            var row = rows[i];
            page.Add(new SpatialHit(searcher.GetKey(row.Entry), row.Distance, row.Lat, row.Lng));
        }
        return page;
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
