using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Documents;

/// <summary>
/// The names of auto indexes and of their fields, made from the paths queries ask for. A field's name
/// is its identity: covering, widening and the catalog compare fields by name, so two paths must never
/// get one name, and since the name shows in answers and logs it should read as the query did.
/// </summary>
internal static class AutoIndexNaming
{
    /// <summary>
    /// The field an auto index keeps for <paramref name="path"/>: the path as a query writes it
    /// (<see cref="FieldPath.QueryText"/>), and a last name ending in the numeric twin's suffix quoted too.
    /// So the index's name reads as the query did (<c>Auto/Movies/By'Major Genre'</c>), the property
    /// <c>a.b</c> (<c>'a.b'</c>) never shares a field with the path a → b (<c>a.b</c>), and no property
    /// name can pass for <c>search(…)</c>, <c>id()</c> or a numeric twin (<c>Price__num</c> is
    /// <c>Price</c>'s twin, the property is <c>'Price__num'</c>). The definition keeps the path itself,
    /// so the name is never parsed back.
    /// </summary>
    public static string FieldName(FieldPath path)
    {
        var text = path.QueryText;
        if (!text.EndsWith(IndexDefinition.NumericSuffix, StringComparison.Ordinal))
            return text;
        return FieldPathSyntax.Format(path.Segments, static name => !FieldPathSyntax.IsQueryBare(name) || name.EndsWith(IndexDefinition.NumericSuffix, StringComparison.Ordinal));
    }

    /// <summary>
    /// The spatial field an auto index keeps for <c>spatial.point(lat, lng)</c> or <c>spatial.wkt(path)</c>, written as the
    /// query writes it (<c>spatial.point(Address.Location.Latitude,Address.Location.Longitude)</c>).
    /// </summary>
    public static string SpatialFieldName(Spatial.SpatialSource source) => source.Wkt is { } wkt
        ? $"spatial.wkt({FieldName(wkt)})"
        : $"spatial.point({FieldName(source.Latitude!)},{FieldName(source.Longitude!)})";

    /// <summary>The field an auto index keeps for <c>search(<paramref name="path"/>, …)</c>.</summary>
    public static string SearchFieldName(FieldPath path) => $"search({FieldName(path)})";

    /// <summary>The case-sensitive field an auto index keeps for <c>exact(…)</c> and <c>regex()</c> on <paramref name="path"/>.</summary>
    public static string ExactFieldName(FieldPath path) => $"exact({FieldName(path)})";

    /// <summary>
    /// <c>Auto/{Collection}/By{Field}And{Field}…</c>, each field as <see cref="FieldName"/> writes it and
    /// a full-text one as <c>Search(…)</c> (<c>Auto/Movies/By'Major Genre'AndSearch('Plot Summary')AndYear</c>).
    /// An index name holds no control character; in a field one only occurs inside quotes, where a
    /// backslash is always escaped, so it is written as an escape (<c>'tab\there'</c>, <c>'\u0001'</c>)
    /// without making two names one. Queries (and widening, which keeps every field a collection's auto
    /// indexes had) can ask for more fields than fit in an index name; such a name is cut and ends with a
    /// hash of the whole name instead, so the query still gets its index.
    /// </summary>
    public static string IndexName(string collection, IReadOnlyList<string> orderedFields)
    {
        var builder = new StringBuilder(IndexDefinition.AutoPrefix).Append(collection).Append("/By");
        AppendJoined(builder, orderedFields);
        return Shortened(builder.ToString());
    }

    /// <summary>
    /// <c>Auto/{Collection}/By{Aggregation}And…ReducedBy{Group}And…</c> for an auto map/reduce index
    /// (<c>Auto/Orders/ByCountAndSum(Freight)ReducedByCompany</c>), written and cut as <see cref="IndexName"/> is.
    /// </summary>
    public static string MapReduceIndexName(string collection, IReadOnlyList<string> orderedAggregations, IReadOnlyList<string> groups)
    {
        var builder = new StringBuilder(IndexDefinition.AutoPrefix).Append(collection).Append('/');
        if (orderedAggregations.Count > 0)
            AppendJoined(builder.Append("By"), orderedAggregations);
        AppendJoined(builder.Append("ReducedBy"), groups);
        return Shortened(builder.ToString());
    }

    private static void AppendJoined(StringBuilder builder, IReadOnlyList<string> fields)
    {
        for (var i = 0; i < fields.Count; i++)
        {
            if (i > 0)
                builder.Append("And");
            AppendWithoutControlCharacters(builder, fields[i]);
        }
    }

    private static string Shortened(string name)
    {
        if (name.Length <= IndexDefinition.MaxNameLength)
            return name;
        var hash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(name)), 0, 8);
        var keep = IndexDefinition.MaxNameLength - hash.Length - 1;
        if (char.IsHighSurrogate(name[keep - 1]))
            keep--;
        return $"{name[..keep]}~{hash}";
    }

    private static void AppendWithoutControlCharacters(StringBuilder builder, string field)
    {
        foreach (var c in field)
        {
            switch (c)
            {
                case '\t':
                    builder.Append("\\t");
                    break;
                case '\n':
                    builder.Append("\\n");
                    break;
                case '\r':
                    builder.Append("\\r");
                    break;
                case var control when char.IsControl(control):
                    builder.Append("\\u").Append(((int)control).ToString("x4", CultureInfo.InvariantCulture));
                    break;
                default:
                    builder.Append(c);
                    break;
            }
        }
    }
}
