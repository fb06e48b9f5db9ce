using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The credential routes answer as the wire contract says, for good and bad input.</summary>
public sealed class SecurityConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Keys = "/admin/api-keys";
    private const string Certificates = "/admin/certificates";

    [Fact]
    [Exercises("POST /admin/api-keys", "GET /admin/api-keys", "DELETE /admin/api-keys")]
    public async Task ApiKeyRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string name = "key-" + Guid.NewGuid().ToString("N")[..8];
        string db = FolioApi.NewDatabaseName();

        WireAnswer created = await Wire.SendAsync(HttpMethod.Post, Keys, Keys, $$"""{"Name":"{{name}}","Clearance":"ReadWrite","Databases":["{{db}}"]}""");
        WireAnswer admin = await Wire.SendAsync(HttpMethod.Post, Keys, Keys, $$"""{"Name":"{{name}}-admin","Clearance":"Admin"}""");
        WireAnswer list = await Wire.GetAsync(Keys, Keys);

        Assert.Equal(201, created.Status);
        Assert.Equal(201, admin.Status);
        Assert.Equal(["*"], admin.Body.GetProperty("Databases").EnumerateArray().Select(d => d.GetString()));
        JsonElement listed = list.Body.GetProperty("Results").EnumerateArray().Single(k => k.GetProperty("Name").GetString() == name);
        Assert.Equal(created.Body.GetProperty("Id").GetString(), listed.GetProperty("Id").GetString());
        Assert.False(listed.TryGetProperty("Key", out _));

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, $$"""{"Name":"{{name}}","Clearance":"Read","Databases":["*"]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, """{"Name":"x","Clearance":"Owner"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, """{"Name":"x","Clearance":"Read"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, """{"Name":"x","Clearance":"Read","Databases":["a..b"]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, """{"Name":"x","Clearance":"Admin","Databases":["one"]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, """{"Clearance":"Admin"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, """{"Name":""")).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Post, Keys, Keys, LargeObject(70 * 1024))).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Keys, $"{Keys}?name={name}")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Keys, $"{Keys}?name={name}-admin")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Keys, $"{Keys}?name={name}")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Keys, Keys)).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /admin/certificates", "GET /admin/certificates", "DELETE /admin/certificates")]
    public async Task CertificateRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string name = "cert-" + Guid.NewGuid().ToString("N")[..8];
        using RSA rsa = RSA.Create(2048);
        using X509Certificate2 certificate = new CertificateRequest("CN=" + name, rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1)
            .CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
        string pem = JsonSerializer.Serialize(certificate.ExportCertificatePem());
        string sha1 = string.Join(":", Enumerable.Range(0, 20).Select(i => certificate.Thumbprint.Substring(i * 2, 2).ToLowerInvariant()));

        WireAnswer byPem = await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, $$"""{"Name":"{{name}}","Clearance":"Read","Databases":["*"],"Certificate":{{pem}}}""");
        WireAnswer byThumbprint = await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, $$"""{"Name":"{{name}}-sha1","Clearance":"Admin","Thumbprint":"{{sha1}}"}""");
        WireAnswer list = await Wire.GetAsync(Certificates, Certificates);

        Assert.Equal(201, byPem.Status);
        Assert.Equal(certificate.GetCertHashString(HashAlgorithmName.SHA256), byPem.Body.GetProperty("Thumbprint").GetString());
        Assert.Equal(certificate.Thumbprint, byThumbprint.Body.GetProperty("Thumbprint").GetString());
        Assert.Contains(list.Body.GetProperty("Results").EnumerateArray(), c => c.GetProperty("Name").GetString() == name);

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, $$"""{"Name":"{{name}}-again","Clearance":"Read","Databases":["*"],"Certificate":{{pem}}}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, """{"Name":"x","Clearance":"Admin"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, """{"Name":"x","Clearance":"Admin","Thumbprint":"abc"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, """{"Name":"x","Clearance":"Admin","Certificate":"not pem"}""")).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Post, Certificates, Certificates, LargeObject(70 * 1024))).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Certificates, $"{Certificates}?name={name}")).Status);
        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Certificates, $"{Certificates}?name={name}-sha1")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Certificates, $"{Certificates}?name={name}")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Certificates, Certificates)).Status);

        AssertExercised();
    }
}
