using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;
using Folio.Indexing.Spatial;

namespace Folio.Indexing.Querying;

// Spatial conditions and distances: the index field a spatial reference reads, and the shapes, checked with errors that
// name the argument at fault.
internal sealed partial class QueryCompiler
{
    /// <summary>
    /// The spatial sources a collection query needs its auto index to keep (conditions and distance order); throws when the
    /// query names a field instead, which only a static index has.
    /// </summary>
    public static List<SpatialSource> SpatialFieldsOf(RqlQuery query)
    {
        var sources = new List<SpatialSource>();
        if (query.Where is not null)
            CollectSpatial(query.Where, sources);
        foreach (var order in query.OrderBy)
        {
            if (order.Distance is { } distance)
                sources.Add(CollectionSource(distance.Field));
        }
        return sources;
    }

    private static SpatialSource CollectionSource(RqlSpatialField field) => field.Source
        ?? throw new RqlParseException($"A query on a collection names its points with spatial.point(latPath, lngPath) or spatial.wkt(path), not the field {field}", field.Position);

    private static void CollectSpatial(RqlExpression expression, List<SpatialSource> sources)
    {
        switch (expression)
        {
            case RqlBinary binary:
                CollectSpatial(binary.Left, sources);
                CollectSpatial(binary.Right, sources);
                break;
            case RqlNot not:
                CollectSpatial(not.Inner, sources);
                break;
            case RqlBoost boost:
                CollectSpatial(boost.Inner, sources);
                break;
            case RqlSpatial spatial:
                sources.Add(CollectionSource(spatial.Field));
                break;
        }
    }

    private Query Spatial(RqlSpatial spatial)
    {
        if (spatial.IsContains)
            throw new RqlParseException("spatial.contains() asks whether a document's shape contains the query's shape, and Folio's spatial fields hold points, which contain no area; use spatial.within() or spatial.intersects()", spatial.Position);
        var field = SpatialIndexField(spatial.Field);
        var inside = new SpatialQuery(field, Shape(spatial.Shape));
        // Disjoint: documents with a point, none of which lies in the shape (a document without one relates to nothing).
        return spatial.Relation == SpatialRelation.Disjoint ? new AndQuery([new ExistsQuery(field)], [inside]) : inside;
    }

    /// <summary>The index field a spatial reference reads; throws when the index has no such spatial field.</summary>
    public string SpatialIndexField(RqlSpatialField field)
    {
        if (definition.IsAuto && definition.Reduce is null)
        {
            if (field.Source is { } source)
                return AutoIndexNaming.SpatialFieldName(source);
            throw new RqlParseException($"A query on a collection names its points with spatial.point(latPath, lngPath) or spatial.wkt(path), not the field {field}", field.Position);
        }
        if (field.Named is { } named)
        {
            if (definition.Fields.TryGetValue(named.Name, out var defined) && defined.Spatial is not null)
                return named.Name;
            throw new QueryException(defined is null
                ? $"Index '{definition.Name}' has no field '{named.Name}'."
                : $"Field '{named.Name}' of index '{definition.Name}' is not spatial; define it as \"{named.Name}\": {{\"Spatial\": {{\"Latitude\": \"path\", \"Longitude\": \"path\"}}}}.");
        }
        foreach (var (name, defined) in definition.Fields)
        {
            if (defined.Spatial is { } spatial && spatial.SameAs(field.Source!))
                return name;
        }
        throw new QueryException($"Index '{definition.Name}' has no spatial field reading {field}; name one of its spatial fields instead.");
    }

    private SpatialShape Shape(RqlShape shape)
    {
        switch (shape)
        {
            case RqlCircle circle:
                var radius = Number(circle.Radius, "radius of spatial.circle()");
                var latitude = Number(circle.Latitude, "latitude of spatial.circle()");
                var longitude = Number(circle.Longitude, "longitude of spatial.circle()");
                var units = Units(circle.Units);
                try
                {
                    return new CircleShape(radius, latitude, longitude, units);
                }
                catch (ArgumentException e)
                {
                    throw new RqlParseException(e.Message.TrimEnd('.'), circle.Position);
                }
            case RqlWktShape wkt:
                var text = Resolve(wkt.Text);
                if (text.Type != FieldValueType.String)
                    throw new RqlParseException($"spatial.wkt() takes the shape as a string of WKT, not {text}", wkt.Text.Position);
                try
                {
                    return CircleShape.TryParseWkt(text.Text!, out var wktCircle) ? wktCircle : PolygonShape.Parse(text.Text!);
                }
                catch (ArgumentException e)
                {
                    throw new RqlParseException(e.Message.TrimEnd('.'), wkt.Text.Position);
                }
            default:
                throw new QueryException($"Unsupported shape {shape}.");
        }
    }

    private SpatialUnits Units(RqlValue? value)
    {
        if (value is null)
            return SpatialUnits.Kilometers;
        var units = Resolve(value);
        return units.Type == FieldValueType.String && units.Text!.ToLowerInvariant() is var text
            ? text switch
            {
                "kilometers" or "kilometres" or "km" => SpatialUnits.Kilometers,
                "miles" or "mi" => SpatialUnits.Miles,
                _ => throw new RqlParseException($"spatial.circle() measures its radius in 'kilometers' or 'miles', not '{units.Text}'", value.Position),
            }
            : throw new RqlParseException($"spatial.circle() measures its radius in 'kilometers' or 'miles', not {units}", value.Position);
    }

    /// <summary>A number argument of a spatial function; throws naming it when it is no finite number.</summary>
    public double Number(RqlValue value, string what)
    {
        var resolved = Resolve(value);
        if (resolved.Type is not (FieldValueType.Long or FieldValueType.Double) || !double.IsFinite(resolved.Double))
            throw new RqlParseException($"The {what} must be a number, not {resolved}", value.Position);
        return resolved.Double;
    }
}
