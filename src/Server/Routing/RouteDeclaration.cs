namespace Folio.Server.Routing;

/// <summary>One route as registered: what the route-by-clearance test and the security checks enumerate.</summary>
/// <param name="Method">HTTP method, upper case.</param>
/// <param name="Template">Path template as declared.</param>
/// <param name="Access">What a caller needs when authentication is required.</param>
/// <param name="DeclaredBy">Where it is declared, <c>Type.Method</c>, so a message can say what to fix.</param>
public sealed record RouteDeclaration(string Method, string Template, RouteAccess Access, string DeclaredBy);
