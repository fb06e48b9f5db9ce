using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// The topology the seeds' system's clients ask for before their first request: Folio is one node, tagged
/// <see cref="NodeTag"/>, a member of every database, reached at the address the client used.
/// </summary>
public sealed class NodeTopologyHandler
{
    /// <summary>The tag Folio gives itself; the clients put it at the end of HiLo ids (<c>users/1-A</c>).</summary>
    public const string NodeTag = "A";

    // One cluster that never changes: its id and etag stay fixed for the life of the process.
    private static readonly string s_topologyId = Guid.NewGuid().ToString();

    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Checks that a database asked about exists.</param>
    public NodeTopologyHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>
    /// <c>GET /topology?name=</c>: <c>{"Nodes":[{"Url","ClusterTag","ServerRole","Database"}],"Etag"}</c> for an
    /// existing database; 404 when there is none.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/topology", Access = RouteAccess.Authenticated)]
    public async ValueTask DatabaseTopology(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        DatabaseName.Validate(name);
        if (!_databases.TryGet(name, out DatabaseEntry? database))
        {
            throw new FolioHttpException(
                StatusCodes.Status404NotFound,
                "Database not found",
                $"There is no database named '{name}'.",
                ProblemTypes.DatabaseNotFound);
        }

        await JsonResponse.WriteAsync(request.Response, (NodeUrl(request.Request), database.Name), WriteDatabaseTopology, request.Aborted);
    }

    /// <summary><c>GET /cluster/topology</c>: a cluster of one node, its leader.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/cluster/topology", Access = RouteAccess.Authenticated)]
    public async ValueTask ClusterTopology(FolioRequest request) =>
        await JsonResponse.WriteAsync(request.Response, NodeUrl(request.Request), WriteClusterTopology, request.Aborted);

    /// <summary><c>GET /cluster/node-info</c>: this node's tag, role and machine.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/cluster/node-info", Access = RouteAccess.Authenticated)]
    public async ValueTask NodeInfo(FolioRequest request) =>
        await JsonResponse.WriteAsync(request.Response, 0, WriteNodeInfo, request.Aborted);

    /// <summary><c>GET /build/version</c>: the protocol version Folio answers as, and Folio's own.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/build/version", Access = RouteAccess.Public)]
    public async ValueTask BuildVersion(FolioRequest request) =>
        await JsonResponse.WriteAsync(request.Response, 0, static (writer, _) => WriteBuild(writer), request.Aborted);

    /// <summary>The address of this node as the client reached it (scheme and Host header).</summary>
    /// <param name="request">The request.</param>
    /// <returns>E.g. <c>http://127.0.0.1:8080</c>.</returns>
    internal static string NodeUrl(HttpRequest request) => $"{request.Scheme}://{request.Host.Value}";

    private static void WriteDatabaseTopology(Utf8JsonWriter writer, (string Url, string Database) state)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Nodes"u8);
        writer.WriteStartObject();
        writer.WriteString("Url"u8, state.Url);
        writer.WriteString("ClusterTag"u8, NodeTag);
        writer.WriteString("ServerRole"u8, "Member"u8);
        writer.WriteString("Database"u8, state.Database);
        writer.WriteEndObject();
        writer.WriteEndArray();
        writer.WriteNumber("Etag"u8, 1);
        writer.WriteEndObject();
    }

    private static void WriteClusterTopology(Utf8JsonWriter writer, string url)
    {
        writer.WriteStartObject();
        writer.WriteStartObject("Topology"u8);
        writer.WriteString("TopologyId"u8, s_topologyId);
        WriteNodes(writer, "AllNodes"u8, url);
        WriteNodes(writer, "Members"u8, url);
        writer.WriteStartObject("Promotables"u8);
        writer.WriteEndObject();
        writer.WriteStartObject("Watchers"u8);
        writer.WriteEndObject();
        writer.WriteString("LastNodeId"u8, NodeTag);
        writer.WriteNumber("Etag"u8, 1);
        writer.WriteEndObject();
        writer.WriteNumber("Etag"u8, 1);
        writer.WriteString("Leader"u8, NodeTag);
        writer.WriteString("NodeTag"u8, NodeTag);
        writer.WriteString("CurrentState"u8, "Leader"u8);
        writer.WriteNumber("CurrentTerm"u8, 1);
        writer.WriteEndObject();
    }

    private static void WriteNodes(Utf8JsonWriter writer, ReadOnlySpan<byte> name, string url)
    {
        writer.WriteStartObject(name);
        writer.WriteString(NodeTag, url);
        writer.WriteEndObject();
    }

    private static void WriteNodeInfo(Utf8JsonWriter writer, int _)
    {
        writer.WriteStartObject();
        writer.WriteString("NodeTag"u8, NodeTag);
        writer.WriteString("TopologyId"u8, s_topologyId);
        writer.WriteNull("Certificate"u8);
        writer.WriteString("ClusterStatus"u8, "Leader"u8);
        writer.WriteNumber("NumberOfCores"u8, Environment.ProcessorCount);
        double memoryGb = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024);
        writer.WriteNumber("InstalledMemoryInGb"u8, Math.Round(memoryGb, 2));
        writer.WriteNumber("UsableMemoryInGb"u8, Math.Round(memoryGb, 2));
        writer.WritePropertyName("BuildInfo"u8);
        WriteBuild(writer);
        writer.WriteString("ServerRole"u8, "Member"u8);
        writer.WriteBoolean("HasFixedPort"u8, true);
        writer.WriteNumber("ServerSchemaVersion"u8, 1);
        writer.WriteEndObject();
    }

    private static void WriteBuild(Utf8JsonWriter writer)
    {
        // The clients compare the product version to enable features; 5.4 is the protocol Folio follows.
        writer.WriteStartObject();
        writer.WriteString("ProductVersion"u8, "5.4"u8);
        writer.WriteNumber("BuildVersion"u8, 54000);
        writer.WriteString("CommitHash"u8, "folio"u8);
        writer.WriteString("FullVersion"u8, "5.4.0-folio"u8);
        writer.WriteEndObject();
    }
}
