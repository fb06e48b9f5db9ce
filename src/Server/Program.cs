var builder = WebApplication.CreateSlimBuilder(args);
builder.WebHost.UseUrls(builder.Configuration["ServerUrl"] ?? "http://127.0.0.1:8080");
var app = builder.Build();
app.MapGet("/healthz", () => Results.Text("ok"));
app.Run();
