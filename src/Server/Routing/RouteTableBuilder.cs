using System.Reflection;

namespace Folio.Server.Routing;

/// <summary>
/// Collects routes at start, from handler objects' <see cref="FolioRouteAttribute"/>s or one by one,
/// and freezes them into a <see cref="FolioRouter"/>. Reflection runs here once; requests only invoke
/// the delegates bound here.
/// </summary>
public sealed class RouteTableBuilder
{
    private readonly Dictionary<string, RouteBucket> _fixed = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, Dictionary<string, RouteBucket>> _byPrefix = new(StringComparer.OrdinalIgnoreCase);
    private int _routeCount;

    /// <summary>Adds one route.</summary>
    /// <param name="method">HTTP method, e.g. <c>GET</c>.</param>
    /// <param name="template">Path template, e.g. <c>/databases/{db}/docs</c>.</param>
    /// <param name="handler">What serves it.</param>
    /// <exception cref="ArgumentException">The method is not one Folio routes, or the template is malformed.</exception>
    /// <exception cref="InvalidOperationException">The same method and template were added before.</exception>
    public void Add(string method, string template, FolioRequestHandler handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        int slot = HttpMethodSlots.IndexOf(method);
        if (slot < 0)
            throw new ArgumentException($"HTTP method '{method}' is not routable.", nameof(method));

        RouteTemplate parsed = RouteTemplate.Parse(template);
        Dictionary<string, RouteBucket> table = _fixed;
        string key = parsed.Prefix;
        if (parsed.HasDatabase)
        {
            if (!_byPrefix.TryGetValue(parsed.Prefix, out Dictionary<string, RouteBucket>? group))
            {
                group = new Dictionary<string, RouteBucket>(StringComparer.OrdinalIgnoreCase);
                _byPrefix.Add(parsed.Prefix, group);
            }

            table = group;
            key = parsed.Suffix;
        }

        if (!table.TryGetValue(key, out RouteBucket? bucket))
        {
            bucket = new RouteBucket(parsed.Text);
            table.Add(key, bucket);
        }

        bucket.Set(slot, handler);
        _routeCount++;
    }

    /// <summary>Adds every route declared with <see cref="FolioRouteAttribute"/> on the handler's public instance methods.</summary>
    /// <param name="handler">A handler object; it serves all its routes for the server's lifetime.</param>
    /// <exception cref="InvalidOperationException">The handler declares no route, or a route method has the wrong shape.</exception>
    public void AddHandler(object handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        Type type = handler.GetType();
        int found = 0;
        foreach (MethodInfo method in type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly))
        {
            foreach (FolioRouteAttribute route in method.GetCustomAttributes<FolioRouteAttribute>())
            {
                var bound = (FolioRequestHandler?)Delegate.CreateDelegate(typeof(FolioRequestHandler), handler, method, throwOnBindFailure: false);
                if (bound is null)
                {
                    throw new InvalidOperationException(
                        $"{type.Name}.{method.Name} serves {route.Method} {route.Template} but is not 'ValueTask {method.Name}(FolioRequest request)'.");
                }

                Add(route.Method, route.Template, bound);
                found++;
            }
        }

        if (found == 0)
            throw new InvalidOperationException($"{type.Name} declares no [FolioRoute] method.");
    }

    /// <summary>Freezes the routes added so far into a router.</summary>
    /// <returns>The router.</returns>
    public FolioRouter Build()
    {
        foreach (RouteBucket bucket in _fixed.Values)
            bucket.Seal();

        var groups = new RoutePrefixGroup[_byPrefix.Count];
        int i = 0;
        foreach (KeyValuePair<string, Dictionary<string, RouteBucket>> entry in _byPrefix)
        {
            foreach (RouteBucket bucket in entry.Value.Values)
                bucket.Seal();
            groups[i++] = new RoutePrefixGroup(entry.Key, entry.Value);
        }

        // A longer prefix is more specific, so it gets the first chance at a path.
        Array.Sort(groups, static (a, b) => b.Prefix.Length.CompareTo(a.Prefix.Length));
        return new FolioRouter(_fixed, groups, _routeCount);
    }
}
