using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Server.Http;
using Folio.Storage.Documents;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.Documents;

/// <summary>
/// The <c>include=</c> paths of a read and the ids they found in its results, in first-seen order
/// without repeats (ids compare case-insensitively, as the store does). A path is a
/// <see cref="FieldPath"/>, read as a query's <c>include</c> reads it, so both find the same ids.
/// </summary>
public sealed class IncludeSet : IPathStringSink
{
    private readonly FieldPath[] _paths;
    private readonly List<string> _ids = [];
    private readonly HashSet<string> _seen = new(StringComparer.OrdinalIgnoreCase);

    private IncludeSet(FieldPath[] paths)
    {
        _paths = paths;
    }

    /// <summary>The ids found so far.</summary>
    public IReadOnlyList<string> Ids => _ids;

    /// <summary>Reads the request's <c>include</c> parameters.</summary>
    /// <param name="request">The request.</param>
    /// <returns>The set, or null when the request includes nothing (so plain reads allocate nothing for it).</returns>
    /// <exception cref="FolioHttpException">400 for a malformed path.</exception>
    public static IncludeSet? FromQuery(HttpRequest request)
    {
        StringValues values = request.Query["include"];
        if (values.Count == 0)
            return null;
        var paths = new FieldPath[values.Count];
        for (int i = 0; i < paths.Length; i++)
        {
            try
            {
                paths[i] = FieldPath.Parse(values[i] ?? string.Empty);
            }
            catch (FieldPathException e)
            {
                throw QueryParameters.Invalid($"The include parameter is not a path: {e.Message}");
            }
        }

        return new IncludeSet(paths);
    }

    /// <summary>Collects the ids every path finds in a result document.</summary>
    /// <param name="json">The result's stored JSON.</param>
    public void CollectFrom(ReadOnlySpan<byte> json)
    {
        foreach (FieldPath path in _paths)
            path.CollectStrings(json, this);
    }

    /// <summary>Adds one id unless it is empty, not a possible id, or already there.</summary>
    /// <param name="id">A string value found at an include path.</param>
    public void Add(string id)
    {
        // A value that cannot be an id (empty, too long) simply refers to nothing.
        if (id.Length == 0 || id.Length > DocumentIds.MaxIdBytes)
            return;
        if (_seen.Add(id))
            _ids.Add(id);
    }

    /// <summary>Writes the found documents as the properties of the open <c>Includes</c> object, keyed by their stored ids; missing ones are left out.</summary>
    /// <param name="writer">A writer inside the <c>Includes</c> object.</param>
    /// <param name="reader">The snapshot the results came from.</param>
    public void WriteDocuments(Utf8JsonWriter writer, DocumentReader reader)
    {
        foreach (string id in _ids)
        {
            if (!reader.TryGet(id, out Document document))
                continue;
            writer.WritePropertyName(document.Id);
            writer.WriteRawValue(document.Json, skipInputValidation: true);
        }
    }
}
