namespace Folio.Server.Routing;

/// <summary>
/// Maps the HTTP methods Folio serves to small indexes, so a route bucket holds its handlers in an
/// array instead of a dictionary and picking one costs a few reference compares.
/// </summary>
internal static class HttpMethodSlots
{
    /// <summary>Number of slots.</summary>
    public const int Count = 7;

    /// <summary>Slot of HEAD, which falls back to GET when a route declares no HEAD of its own.</summary>
    public const int Head = 4;

    /// <summary>Slot of GET.</summary>
    public const int Get = 0;

    // Order is the order methods appear in Allow headers.
    private static readonly string[] s_names =
    [
        HttpMethods.Get, HttpMethods.Put, HttpMethods.Post, HttpMethods.Delete,
        HttpMethods.Head, HttpMethods.Patch, HttpMethods.Options,
    ];

    /// <summary>Slot of a method, or -1 for methods Folio does not route.</summary>
    /// <param name="method">Method as Kestrel reports it (interned for the common ones).</param>
    /// <returns>The slot, or -1.</returns>
    public static int IndexOf(string method)
    {
        // Kestrel hands out the interned HttpMethods constants, so the reference compare inside
        // IsGet and friends usually answers before any string comparison runs.
        if (HttpMethods.IsGet(method))
            return 0;
        if (HttpMethods.IsPut(method))
            return 1;
        if (HttpMethods.IsPost(method))
            return 2;
        if (HttpMethods.IsDelete(method))
            return 3;
        if (HttpMethods.IsHead(method))
            return 4;
        if (HttpMethods.IsPatch(method))
            return 5;
        if (HttpMethods.IsOptions(method))
            return 6;
        return -1;
    }

    /// <summary>The canonical method name of a slot.</summary>
    /// <param name="slot">A slot from <see cref="IndexOf"/>.</param>
    /// <returns>The upper-case method name.</returns>
    public static string NameOf(int slot) => s_names[slot];
}
