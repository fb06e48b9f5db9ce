using System.Text;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Storage.Documents;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.Documents;

/// <summary>
/// HTTP validators built on change vectors: a document's <c>ETag</c> is its change vector in quotes,
/// <c>If-None-Match</c> is compared with it, and <c>If-Match</c> hands the storage the change vector
/// a write expects.
/// </summary>
public static class ChangeVectorHeaders
{
    /// <summary>The <c>ETag</c> value of a document version: its change vector, quoted as HTTP requires.</summary>
    /// <param name="etag">The document's etag.</param>
    /// <param name="database">The database it lives in.</param>
    /// <returns>E.g. <c>"A:17-3q2+7w…"</c> with the quotes.</returns>
    public static string ETag(long etag, Database database)
    {
        Span<byte> buffer = stackalloc byte[ChangeVector.MaxLength + 2];
        buffer[0] = (byte)'"';
        int length = 1 + ChangeVector.Format(etag, database.DatabaseIdBytes, buffer[1..]);
        buffer[length++] = (byte)'"';
        return Encoding.ASCII.GetString(buffer[..length]);
    }

    /// <summary>The <c>ETag</c> value for a change vector string from a write result.</summary>
    /// <param name="changeVector">The change vector.</param>
    /// <returns>It, quoted.</returns>
    public static string ETag(string changeVector) => "\"" + changeVector + "\"";

    /// <summary>Whether <c>If-None-Match</c> names the document's current version (or is <c>*</c>), so the answer is 304.</summary>
    /// <param name="ifNoneMatch">The header's values.</param>
    /// <param name="etag">The document's etag.</param>
    /// <param name="database">The database it lives in.</param>
    /// <returns>True when the client's copy is current. Allocates nothing.</returns>
    public static bool IfNoneMatchHits(StringValues ifNoneMatch, long etag, Database database)
    {
        for (int i = 0; i < ifNoneMatch.Count; i++)
        {
            ReadOnlySpan<char> rest = ifNoneMatch[i];
            while (!rest.IsEmpty)
            {
                int comma = rest.IndexOf(',');
                ReadOnlySpan<char> candidate = (comma < 0 ? rest : rest[..comma]).Trim();
                rest = comma < 0 ? default : rest[(comma + 1)..];
                if (candidate is "*")
                    return true;
                // If-None-Match compares weakly (RFC 9110 13.1.2), so W/ makes no difference.
                if (candidate.StartsWith("W/", StringComparison.Ordinal))
                    candidate = candidate[2..];
                if (ChangeVector.TryParse(candidate, database.DatabaseIdBytes, out long parsed) && parsed == etag)
                    return true;
            }
        }

        return false;
    }

    /// <summary>The change vector <c>If-Match</c> requires, or null when the header is absent.</summary>
    /// <param name="request">The request.</param>
    /// <returns>The change vector as sent (quotes allowed).</returns>
    /// <exception cref="FolioHttpException">400 when the header is repeated, a list, or <c>*</c>.</exception>
    public static string? IfMatch(HttpRequest request)
    {
        StringValues values = request.Headers.IfMatch;
        if (values.Count == 0)
            return null;
        string? value = values.Count == 1 ? values[0]?.Trim() : null;
        if (string.IsNullOrEmpty(value) || value == "*" || value.Contains(',', StringComparison.Ordinal))
            throw QueryParameters.Invalid("If-Match must hold exactly one change vector, e.g. \"A:17-…\", as the ETag of the version being replaced.");
        return value;
    }
}
