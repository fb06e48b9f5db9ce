namespace Folio.Server.Routing;

/// <summary>
/// How the router reads a request path: the form it matches, and where a template's segment lies in it.
/// Both work on spans of the path, so neither matching nor reading a route value allocates.
/// </summary>
internal static class RoutePath
{
    /// <summary>The path as routes see it: one trailing '/' dropped, and an empty path read as <c>/</c>.</summary>
    /// <param name="path">The decoded request path.</param>
    /// <returns>A span of <paramref name="path"/>, or of a constant <c>/</c>.</returns>
    public static ReadOnlySpan<char> Normalize(string path)
    {
        ReadOnlySpan<char> span = path.AsSpan();
        if (span.Length > 1 && span[^1] == '/')
            return span[..^1];
        return span.IsEmpty ? "/" : span;
    }

    /// <summary>
    /// Finds segment <paramref name="index"/> (0 is the text after the first '/'). The caller knows from
    /// the matched template that the segment exists, except a catch-all's, which is empty when the path
    /// ends before it.
    /// </summary>
    /// <param name="path">A path from <see cref="Normalize"/> that matched the template.</param>
    /// <param name="index">The segment's index.</param>
    /// <param name="toEnd">Whether the value runs to the end of the path (a catch-all) instead of to the next '/'.</param>
    /// <returns>The segment's offset and length in <paramref name="path"/>.</returns>
    public static (int Start, int Length) Locate(ReadOnlySpan<char> path, int index, bool toEnd)
    {
        int slash = 0;
        for (int i = 0; i < index; i++)
        {
            int next = path[(slash + 1)..].IndexOf('/');
            if (next < 0)
                return (path.Length, 0);
            slash += next + 1;
        }

        int start = slash + 1;
        if (toEnd)
            return (start, path.Length - start);
        int end = path[start..].IndexOf('/');
        return (start, end < 0 ? path.Length - start : end);
    }
}
