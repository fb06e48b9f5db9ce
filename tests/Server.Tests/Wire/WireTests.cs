using System.Reflection;
using System.Runtime.CompilerServices;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>What the conformance test classes share: a checked client per test, and the check that it exercised what the test declares.</summary>
public abstract class WireTests(WireFixture fixture) : IClassFixture<WireFixture>
{
    protected RunningServer Server => fixture.Running;

    /// <summary>A client that checks every answer against the contract, and records them.</summary>
    protected WireClient Wire { get; } = new(fixture.Running.Client, WireContract.Embedded);

    /// <summary>A body of <paramref name="bytes"/> bytes that is one valid JSON object.</summary>
    /// <param name="bytes">The size, at least 16.</param>
    /// <returns>The JSON text.</returns>
    protected static string LargeObject(int bytes) => "{\"Fill\":\"" + new string('x', bytes - 11) + "\"}";

    /// <summary>Fails unless the calling test's <see cref="ExercisesAttribute"/> operations were each sent good and bad input.</summary>
    /// <param name="test">The calling test method, filled in by the compiler.</param>
    protected void AssertExercised([CallerMemberName] string test = "")
    {
        ExercisesAttribute declared = GetType().GetMethod(test)?.GetCustomAttribute<ExercisesAttribute>()
            ?? throw new InvalidOperationException($"{GetType().Name}.{test} declares no [Exercises].");
        Wire.AssertExercised(declared.Operations);
    }
}
