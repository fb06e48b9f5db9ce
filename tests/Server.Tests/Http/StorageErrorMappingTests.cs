using Folio.Server.Http;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.AspNetCore.Http;

namespace Folio.Server.Tests.Http;

public class StorageErrorMappingTests
{
    [Fact]
    public void DocumentValidation_Maps400()
    {
        Problem problem = ExceptionMapper.ToProblem(new DocumentValidationException("A document must be a JSON object."), "t1");

        Assert.Equal(StatusCodes.Status400BadRequest, problem.Status);
        Assert.Equal(ProblemTypes.InvalidDocument, problem.Type);
        Assert.Equal("A document must be a JSON object.", problem.Detail);
    }

    [Fact]
    public void Concurrency_Maps409_WithExpectedAndActualInDetail()
    {
        var conflict = new ConcurrencyException("Document 'a' has change vector A:2-x, not the expected A:1-x.") { Id = "a", Expected = "A:1-x", Actual = "A:2-x" };

        Problem problem = ExceptionMapper.ToProblem(conflict, "t1");

        Assert.Equal(StatusCodes.Status409Conflict, problem.Status);
        Assert.Contains("A:1-x", problem.Detail, StringComparison.Ordinal);
        Assert.Contains("A:2-x", problem.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public void EnvironmentFailed_Maps500_SayingTheDatabaseRefusesWrites()
    {
        Problem problem = ExceptionMapper.ToProblem(new EnvironmentFailedException("The environment in /secret/path stopped", new IOException("EIO")), "trace-7");

        Assert.Equal(StatusCodes.Status500InternalServerError, problem.Status);
        Assert.Equal("Database refuses writes", problem.Title);
        Assert.Equal(ProblemTypes.StorageFailed, problem.Type);
        Assert.Contains("trace-7", problem.Detail, StringComparison.Ordinal);
        Assert.DoesNotContain("/secret/path", problem.Detail, StringComparison.Ordinal);
        Assert.True(ExceptionMapper.IsServerFault(problem));
    }

    [Fact]
    public void ClosedUnderARequest_Maps503_WithoutTheStoragePath()
    {
        Problem problem = ExceptionMapper.ToProblem(new ObjectDisposedException("StorageEnvironment", "The storage environment in /secret/path is closed or closing"), "trace-9");

        Assert.Equal(StatusCodes.Status503ServiceUnavailable, problem.Status);
        Assert.Equal(ProblemTypes.Closed, problem.Type);
        Assert.Contains("trace-9", problem.Detail, StringComparison.Ordinal);
        Assert.DoesNotContain("/secret/path", problem.Detail, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(28)]
    [InlineData(0x70)]
    [InlineData(unchecked((int)0x80070070))]
    [InlineData(unchecked((int)0x80070027))]
    public void DiskFull_Maps507_AlsoWhenWrappedByAFailedEnvironment(int hresult)
    {
        var diskFull = new IOException("No space left on device", hresult);

        Problem direct = ExceptionMapper.ToProblem(diskFull, "t1");
        Problem wrapped = ExceptionMapper.ToProblem(new EnvironmentFailedException("failed", diskFull), "t1");

        Assert.Equal(StatusCodes.Status507InsufficientStorage, direct.Status);
        Assert.Equal(StatusCodes.Status507InsufficientStorage, wrapped.Status);
        Assert.Equal(ProblemTypes.InsufficientStorage, wrapped.Type);
    }

    [Fact]
    public void OtherIOException_Maps500()
    {
        Problem problem = ExceptionMapper.ToProblem(new IOException("EIO", 5), "t1");

        Assert.Equal(StatusCodes.Status500InternalServerError, problem.Status);
        Assert.Equal(ProblemTypes.InternalError, problem.Type);
    }
}
