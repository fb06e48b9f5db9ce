namespace Folio.Server.Tests.Wire;

/// <summary>
/// Names the operations of the wire contract a conformance test exercises; every operation of the
/// document must be named by some test (<see cref="ContractTests"/>), and each test checks it sent its
/// operations good and bad input (<see cref="WireTests.AssertExercised"/>).
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
public sealed class ExercisesAttribute(params string[] operations) : Attribute
{
    /// <summary>Operation keys, e.g. <c>GET /databases/{db}/docs</c>.</summary>
    public IReadOnlyList<string> Operations { get; } = operations;
}
