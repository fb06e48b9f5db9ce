using System.Reflection;

namespace Folio.Server.Routing;

/// <summary>
/// Collects routes at start, from handler objects' <see cref="FolioRouteAttribute"/>s or one by one,
/// and freezes them into a <see cref="FolioRouter"/>. Reflection runs here once; requests only invoke
/// the delegates bound here.
/// </summary>
public sealed class RouteTableBuilder
{
    // Keyed by shape, so templates that match the same paths share one bucket.
    private readonly Dictionary<string, RouteBucket> _buckets = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<RouteDeclaration> _routes = [];

    /// <summary>Adds one route.</summary>
    /// <param name="method">HTTP method, e.g. <c>GET</c>.</param>
    /// <param name="template">Path template, e.g. <c>/databases/{db}/docs</c>; see <see cref="FolioRouter"/> for the syntax.</param>
    /// <param name="handler">What serves it.</param>
    /// <param name="access">What a caller needs when authentication is required.</param>
    /// <param name="declaredBy">Where the route is declared (<c>Type.Method</c>), for messages; the handler's method when null.</param>
    /// <exception cref="ArgumentException">The method is not one Folio routes, or the template is malformed.</exception>
    /// <exception cref="InvalidOperationException">
    /// The same method and path were added before, or a template for the same path names its parameters differently.
    /// </exception>
    public void Add(string method, string template, FolioRequestHandler handler, RouteAccess access = RouteAccess.Unclassified, string? declaredBy = null)
    {
        ArgumentNullException.ThrowIfNull(handler);
        int slot = HttpMethodSlots.IndexOf(method);
        if (slot < 0)
            throw new ArgumentException($"HTTP method '{method}' is not routable.", nameof(method));

        RouteTemplate parsed = RouteTemplate.Parse(template);
        if (!_buckets.TryGetValue(parsed.Shape, out RouteBucket? bucket))
        {
            bucket = new RouteBucket(parsed);
            _buckets.Add(parsed.Shape, bucket);
        }
        else if (!bucket.Route.NamesParametersLike(parsed))
        {
            throw new InvalidOperationException(
                $"Route {method} {template} has the path of {bucket.Template} but names its parameters differently; routes for one path must name them alike.");
        }

        bucket.Set(slot, handler, access);
        _routes.Add(new RouteDeclaration(HttpMethodSlots.NameOf(slot), template, access, declaredBy ?? $"{handler.Method.DeclaringType?.Name}.{handler.Method.Name}"));
    }

    /// <summary>Adds every route declared with <see cref="FolioRouteAttribute"/> on the handler's public instance methods.</summary>
    /// <param name="handler">A handler object; it serves all its routes for the server's lifetime.</param>
    /// <exception cref="InvalidOperationException">
    /// The handler declares no route, a route method has the wrong shape, or a route is refused by
    /// <see cref="Add"/> (the message names the method and says why).
    /// </exception>
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

                try
                {
                    Add(route.Method, route.Template, bound, route.Access, $"{type.Name}.{method.Name}");
                }
                catch (Exception e) when (e is ArgumentException or InvalidOperationException)
                {
                    throw new InvalidOperationException($"{type.Name}.{method.Name} cannot serve {route.Method} {route.Template}: {e.Message}", e);
                }

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
        foreach (RouteBucket bucket in _buckets.Values)
            bucket.Seal();
        return new FolioRouter(RouteNode.Create(_buckets.Values, depth: 0), _routes.ToArray());
    }
}
