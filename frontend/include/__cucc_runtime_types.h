/* cucc: types of the runtime API beyond the core (graphs, stream capture,
 * memory pools, extended launches, and the handles and descriptors of the
 * entry points the CPU runtime answers with cudaErrorNotSupported).
 * Layouts follow CUDA 13.0. Descriptors of unsupported features are
 * incomplete types: programs can pass pointers to them, not fill them. */
#ifndef __CUCC_RUNTIME_TYPES_H__
#define __CUCC_RUNTIME_TYPES_H__

typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphDeviceUpdatableNode_st *cudaGraphDeviceNode_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUuserObject_st *cudaUserObject_t;
typedef struct CUexternalMemory_st *cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUlib_st *cudaLibrary_t;
typedef struct cudaExecutionContext_st *cudaExecutionContext_t;
typedef struct cudaDevResourceDesc_st *cudaDevResourceDesc_t;
typedef struct cudaAsyncCallbackEntry *cudaAsyncCallbackHandle_t;
typedef struct CUlogsCallbackEntry_st *cudaLogsCallbackHandle;
typedef struct CUeglStreamConnection_st *cudaEglStreamConnection;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;
typedef unsigned long long cudaGraphConditionalHandle;
typedef unsigned int cudaLogIterator;
struct cudaGraphicsResource;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;

/* Incomplete: descriptors of features the CPU runtime does not support. */
typedef struct cudaExternalMemoryHandleDesc cudaExternalMemoryHandleDesc;
typedef struct cudaExternalMemoryBufferDesc cudaExternalMemoryBufferDesc;
typedef struct cudaExternalMemoryMipmappedArrayDesc cudaExternalMemoryMipmappedArrayDesc;
typedef struct cudaExternalSemaphoreHandleDesc cudaExternalSemaphoreHandleDesc;
typedef struct cudaExternalSemaphoreSignalParams cudaExternalSemaphoreSignalParams;
typedef struct cudaExternalSemaphoreWaitParams cudaExternalSemaphoreWaitParams;
typedef struct cudaExternalSemaphoreSignalNodeParams cudaExternalSemaphoreSignalNodeParams;
typedef struct cudaExternalSemaphoreWaitNodeParams cudaExternalSemaphoreWaitNodeParams;
typedef struct cudaMemAllocNodeParams cudaMemAllocNodeParams;
typedef struct cudaArraySparseProperties cudaArraySparseProperties;
typedef struct cudaArrayMemoryRequirements cudaArrayMemoryRequirements;
typedef struct cudaMemPoolPtrExportData cudaMemPoolPtrExportData;
typedef struct cudaMemcpyAttributes cudaMemcpyAttributes;
typedef struct cudaMemcpy3DBatchOp cudaMemcpy3DBatchOp;
typedef struct cudaDevResource cudaDevResource;
typedef struct cudaDevSmResourceGroupParams cudaDevSmResourceGroupParams;
struct cudaEglFrame_st;
typedef struct cudaEglFrame_st cudaEglFrame;
struct cudaAsyncNotificationInfo;
typedef struct cudaAsyncNotificationInfo cudaAsyncNotificationInfo_t;
struct cudaGraphRecaptureCallbackData;
typedef struct cudaGraphRecaptureCallbackData cudaGraphRecaptureCallbackData;

typedef struct cudaIpcEventHandle_st { char reserved[64]; } cudaIpcEventHandle_t;
typedef struct cudaIpcMemHandle_st { char reserved[64]; } cudaIpcMemHandle_t;

enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0x00,
    cudaGraphNodeTypeMemcpy = 0x01,
    cudaGraphNodeTypeMemset = 0x02,
    cudaGraphNodeTypeHost = 0x03,
    cudaGraphNodeTypeGraph = 0x04,
    cudaGraphNodeTypeEmpty = 0x05,
    cudaGraphNodeTypeWaitEvent = 0x06,
    cudaGraphNodeTypeEventRecord = 0x07,
    cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
    cudaGraphNodeTypeExtSemaphoreWait = 0x09,
    cudaGraphNodeTypeMemAlloc = 0x0a,
    cudaGraphNodeTypeMemFree = 0x0b,
    cudaGraphNodeTypeConditional = 0x0d,
    cudaGraphNodeTypeMemcpyBatch = 0x0e,
    cudaGraphNodeTypeReserved16 = 0x10,
    cudaGraphNodeTypeExternalEngine = 0x11,
    cudaGraphNodeTypeCount,
};
typedef enum cudaGraphNodeType cudaGraphNodeType;
enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0,
    cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization = 6,
    cudaLaunchAttributeProgrammaticEvent = 7,
    cudaLaunchAttributePriority = 8,
    cudaLaunchAttributeMemSyncDomainMap = 9,
    cudaLaunchAttributeMemSyncDomain = 10,
    cudaLaunchAttributePreferredClusterDimension = 11,
    cudaLaunchAttributeLaunchCompletionEvent = 12,
    cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
    cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
    cudaLaunchAttributeNvlinkUtilCentricScheduling = 16,
    cudaLaunchAttributePortableClusterSizeMode = 17,
    cudaLaunchAttributeSharedMemoryMode = 18,
};
typedef enum cudaLaunchAttributeID cudaLaunchAttributeID;
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
};
typedef enum cudaStreamCaptureMode cudaStreamCaptureMode;
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2,
};
typedef enum cudaStreamCaptureStatus cudaStreamCaptureStatus;
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 0x1,
    cudaMemPoolReuseAllowOpportunistic = 0x2,
    cudaMemPoolReuseAllowInternalDependencies = 0x3,
    cudaMemPoolAttrReleaseThreshold = 0x4,
    cudaMemPoolAttrReservedMemCurrent = 0x5,
    cudaMemPoolAttrReservedMemHigh = 0x6,
    cudaMemPoolAttrUsedMemCurrent = 0x7,
    cudaMemPoolAttrUsedMemHigh = 0x8,
    cudaMemPoolAttrAllocationType = 0x9,
    cudaMemPoolAttrExportHandleTypes = 0xA,
    cudaMemPoolAttrLocationId = 0xB,
    cudaMemPoolAttrLocationType = 0xC,
    cudaMemPoolAttrMaxPoolSize = 0xD,
    cudaMemPoolAttrHwDecompressEnabled = 0xE,
    cudaMemPoolAttrLocalityDomainId = 0xF,
};
typedef enum cudaMemPoolAttr cudaMemPoolAttr;
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4,
    cudaMemLocationTypeInvisible = 5,
    cudaMemLocationTypeDeviceLocalityDomain = 6,
};
typedef enum cudaMemLocationType cudaMemLocationType;
enum cudaMemAllocationType {
    cudaMemAllocationTypeInvalid = 0x0,
    cudaMemAllocationTypePinned = 0x1,
    cudaMemAllocationTypeManaged = 0x2,
    cudaMemAllocationTypeMax = 0x7FFFFFFF,
};
typedef enum cudaMemAllocationType cudaMemAllocationType;
enum cudaMemAllocationHandleType {
    cudaMemHandleTypeNone = 0x0,
    cudaMemHandleTypePosixFileDescriptor = 0x1,
    cudaMemHandleTypeWin32 = 0x2,
    cudaMemHandleTypeWin32Kmt = 0x4,
    cudaMemHandleTypeFabric = 0x8,
};
typedef enum cudaMemAllocationHandleType cudaMemAllocationHandleType;
enum cudaMemAccessFlags {
    cudaMemAccessFlagsProtNone = 0,
    cudaMemAccessFlagsProtRead = 1,
    cudaMemAccessFlagsProtReadWrite = 3,
};
typedef enum cudaMemAccessFlags cudaMemAccessFlags;
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6,
};
typedef enum cudaMemoryAdvise cudaMemoryAdvise;
enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess = 0x0,
    cudaGraphExecUpdateError = 0x1,
    cudaGraphExecUpdateErrorTopologyChanged = 0x2,
    cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
    cudaGraphExecUpdateErrorFunctionChanged = 0x4,
    cudaGraphExecUpdateErrorParametersChanged = 0x5,
    cudaGraphExecUpdateErrorNotSupported = 0x6,
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
    cudaGraphExecUpdateErrorAttributesChanged = 0x8,
};
typedef enum cudaGraphExecUpdateResult cudaGraphExecUpdateResult;
enum cudaGraphInstantiateResult {
    cudaGraphInstantiateSuccess = 0,
    cudaGraphInstantiateError = 1,
    cudaGraphInstantiateInvalidStructure = 2,
    cudaGraphInstantiateNodeOperationNotSupported = 3,
    cudaGraphInstantiateMultipleDevicesNotSupported = 4,
    cudaGraphInstantiateConditionalHandleUnused = 5,
};
typedef enum cudaGraphInstantiateResult cudaGraphInstantiateResult;
enum cudaGraphInstantiateFlags {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
    cudaGraphInstantiateFlagUpload = 2,
    cudaGraphInstantiateFlagDeviceLaunch = 4,
    cudaGraphInstantiateFlagUseNodePriority = 8,
};
typedef enum cudaGraphInstantiateFlags cudaGraphInstantiateFlags;
enum cudaStreamUpdateCaptureDependenciesFlags {
    cudaStreamAddCaptureDependencies = 0x0,
    cudaStreamSetCaptureDependencies = 0x1,
};
typedef enum cudaStreamUpdateCaptureDependenciesFlags cudaStreamUpdateCaptureDependenciesFlags;
enum cudaAccessProperty {
    cudaAccessPropertyNormal = 0,
    cudaAccessPropertyStreaming = 1,
    cudaAccessPropertyPersisting = 2,
};
typedef enum cudaAccessProperty cudaAccessProperty;
enum cudaSynchronizationPolicy {
    cudaSyncPolicyAuto = 1,
    cudaSyncPolicySpin = 2,
    cudaSyncPolicyYield = 3,
    cudaSyncPolicyBlockingSync = 4,
};
typedef enum cudaSynchronizationPolicy cudaSynchronizationPolicy;
enum cudaClusterSchedulingPolicy {
    cudaClusterSchedulingPolicyDefault = 0,
    cudaClusterSchedulingPolicySpread = 1,
    cudaClusterSchedulingPolicyLoadBalancing = 2,
    cudaClusterSchedulingPolicyRubinDsmemLocality = 3,
};
typedef enum cudaClusterSchedulingPolicy cudaClusterSchedulingPolicy;
enum cudaLaunchMemSyncDomain {
    cudaLaunchMemSyncDomainDefault = 0,
    cudaLaunchMemSyncDomainRemote = 1,
};
typedef enum cudaLaunchMemSyncDomain cudaLaunchMemSyncDomain;
enum cudaDeviceP2PAttr {
    cudaDevP2PAttrPerformanceRank = 1,
    cudaDevP2PAttrAccessSupported = 2,
    cudaDevP2PAttrNativeAtomicSupported = 3,
    cudaDevP2PAttrCudaArrayAccessSupported = 4,
    cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5,
};
typedef enum cudaDeviceP2PAttr cudaDeviceP2PAttr;
enum cudaMemRangeAttribute {
    cudaMemRangeAttributeReadMostly = 1,
    cudaMemRangeAttributePreferredLocation = 2,
    cudaMemRangeAttributeAccessedBy = 3,
    cudaMemRangeAttributeLastPrefetchLocation = 4,
    cudaMemRangeAttributePreferredLocationType = 5,
    cudaMemRangeAttributePreferredLocationId = 6,
    cudaMemRangeAttributeLastPrefetchLocationType = 7,
    cudaMemRangeAttributeLastPrefetchLocationId = 8,
};
typedef enum cudaMemRangeAttribute cudaMemRangeAttribute;
enum cudaGraphMemAttributeType {
    cudaGraphMemAttrUsedMemCurrent = 0x0,
    cudaGraphMemAttrUsedMemHigh = 0x1,
    cudaGraphMemAttrReservedMemCurrent = 0x2,
    cudaGraphMemAttrReservedMemHigh = 0x3,
};
typedef enum cudaGraphMemAttributeType cudaGraphMemAttributeType;
enum cudaJitOption {
    cudaJitMaxRegisters = 0,
    cudaJitThreadsPerBlock = 1,
    cudaJitWallTime = 2,
    cudaJitInfoLogBuffer = 3,
    cudaJitInfoLogBufferSizeBytes = 4,
    cudaJitErrorLogBuffer = 5,
    cudaJitErrorLogBufferSizeBytes = 6,
    cudaJitOptimizationLevel = 7,
    cudaJitFallbackStrategy = 10,
    cudaJitGenerateDebugInfo = 11,
    cudaJitLogVerbose = 12,
    cudaJitGenerateLineInfo = 13,
    cudaJitCacheMode = 14,
    cudaJitPositionIndependentCode = 30,
    cudaJitMinCtaPerSm = 31,
    cudaJitMaxThreadsPerBlock = 32,
    cudaJitOverrideDirectiveValues = 33,
};
typedef enum cudaJitOption cudaJitOption;
enum cudaLibraryOption {
    cudaLibraryHostUniversalFunctionAndDataTable = 0,
    cudaLibraryBinaryIsPreserved = 1,
};
typedef enum cudaLibraryOption cudaLibraryOption;
enum cudaFlushGPUDirectRDMAWritesScope {
    cudaFlushGPUDirectRDMAWritesToOwner = 100,
    cudaFlushGPUDirectRDMAWritesToAllDevices = 200,
};
typedef enum cudaFlushGPUDirectRDMAWritesScope cudaFlushGPUDirectRDMAWritesScope;
enum cudaFlushGPUDirectRDMAWritesTarget {
    cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
};
typedef enum cudaFlushGPUDirectRDMAWritesTarget cudaFlushGPUDirectRDMAWritesTarget;
enum cudaFlushGPUDirectRDMAWritesOptions {
    cudaFlushGPUDirectRDMAWritesOptionHost = 1<<0,
    cudaFlushGPUDirectRDMAWritesOptionMemOps = 1<<1,
};
typedef enum cudaFlushGPUDirectRDMAWritesOptions cudaFlushGPUDirectRDMAWritesOptions;
enum cudaDriverEntryPointQueryResult {
    cudaDriverEntryPointSuccess = 0,
    cudaDriverEntryPointSymbolNotFound = 1,
    cudaDriverEntryPointVersionNotSufficent = 2,
};
typedef enum cudaDriverEntryPointQueryResult cudaDriverEntryPointQueryResult;
enum cudaAtomicOperation {
    cudaAtomicOperationIntegerAdd = 0,
    cudaAtomicOperationIntegerMin = 1,
    cudaAtomicOperationIntegerMax = 2,
    cudaAtomicOperationIntegerIncrement = 3,
    cudaAtomicOperationIntegerDecrement = 4,
    cudaAtomicOperationAnd = 5,
    cudaAtomicOperationOr = 6,
    cudaAtomicOperationXOR = 7,
    cudaAtomicOperationExchange = 8,
    cudaAtomicOperationCAS = 9,
    cudaAtomicOperationFloatAdd = 10,
    cudaAtomicOperationFloatMin = 11,
    cudaAtomicOperationFloatMax = 12,
};
typedef enum cudaAtomicOperation cudaAtomicOperation;
enum cudaDevResourceType {
    cudaDevResourceTypeInvalid = 0,
    cudaDevResourceTypeSm = 1,
    cudaDevResourceTypeWorkqueueConfig = 1000,
    cudaDevResourceTypeWorkqueue = 10000,
};
typedef enum cudaDevResourceType cudaDevResourceType;
enum cudaLaunchAttributePortableClusterMode {
    cudaLaunchPortableClusterModeDefault = 0,
    cudaLaunchPortableClusterModeRequirePortable = 1,
    cudaLaunchPortableClusterModeAllowNonPortable = 2,
};
typedef enum cudaLaunchAttributePortableClusterMode cudaLaunchAttributePortableClusterMode;
enum cudaSharedMemoryMode {
    cudaSharedMemoryModeDefault = 0,
    cudaSharedMemoryModeRequirePortable = 1,
    cudaSharedMemoryModeAllowNonPortable = 2,
    cudaSharedMemoryModeAllowOversizedSharedMemory = 3,
    cudaSharedMemoryModePreferOversizedSharedMemory = 4,
};
typedef enum cudaSharedMemoryMode cudaSharedMemoryMode;
enum cudaGraphDebugDotFlags {
    cudaGraphDebugDotFlagsVerbose = 1<<0,
    cudaGraphDebugDotFlagsKernelNodeParams = 1<<2,
    cudaGraphDebugDotFlagsMemcpyNodeParams = 1<<3,
    cudaGraphDebugDotFlagsMemsetNodeParams = 1<<4,
    cudaGraphDebugDotFlagsHostNodeParams = 1<<5,
    cudaGraphDebugDotFlagsEventNodeParams = 1<<6,
    cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1<<7,
    cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 1<<8,
    cudaGraphDebugDotFlagsKernelNodeAttributes = 1<<9,
    cudaGraphDebugDotFlagsHandles = 1<<10,
    cudaGraphDebugDotFlagsConditionalNodeParams = 1<<15,
    cudaGraphDebugDotFlagsMemcpyBatchNodeParams = 1<<16,
};
typedef enum cudaGraphDebugDotFlags cudaGraphDebugDotFlags;
enum cudaUserObjectFlags {
    cudaUserObjectNoDestructorSync = 0x1,
};
typedef enum cudaUserObjectFlags cudaUserObjectFlags;
enum cudaUserObjectRetainFlags {
    cudaGraphUserObjectMove = 0x1,
};
typedef enum cudaUserObjectRetainFlags cudaUserObjectRetainFlags;
enum cudaGetDriverEntryPointFlags {
    cudaEnableDefault = 0x0,
    cudaEnableLegacyStream = 0x1,
    cudaEnablePerThreadDefaultStream = 0x2,
};
typedef enum cudaGetDriverEntryPointFlags cudaGetDriverEntryPointFlags;
enum cudaMemcpyFlags {
    cudaMemcpyFlagDefault = 0x0,
    cudaMemcpyFlagPreferOverlapWithCompute = 0x1,
};
typedef enum cudaMemcpyFlags cudaMemcpyFlags;
enum cudaMemcpySrcAccessOrder {
    cudaMemcpySrcAccessOrderInvalid = 0x0,
    cudaMemcpySrcAccessOrderStream = 0x1,
    cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
    cudaMemcpySrcAccessOrderAny = 0x3,
    cudaMemcpySrcAccessOrderMax = 0x7FFFFFFF,
};
typedef enum cudaMemcpySrcAccessOrder cudaMemcpySrcAccessOrder;

typedef void (*cudaAsyncCallback)(cudaAsyncNotificationInfo_t *info, void *userData, cudaAsyncCallbackHandle_t callback);
typedef void (*cudaLogsCallback_t)(void *data, int logLevel, char *message, size_t length);

/* A dependency edge: ports and type (only the zero, default edge is used). */
typedef struct cudaGraphEdgeData_st {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type;
    unsigned char reserved[5];
} cudaGraphEdgeData;

struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};

enum cudaKernelFunctionType {
    cudaKernelFunctionTypeUnspecified = 0,
    cudaKernelFunctionTypeDeviceEntry = 1,
    cudaKernelFunctionTypeKernel = 2,
    cudaKernelFunctionTypeFunction = 3
};
enum cudaGraphChildGraphNodeOwnership {
    cudaGraphChildGraphOwnershipClone = 0,
    cudaGraphChildGraphOwnershipMove = 1,
    cudaGraphChildGraphOwnershipInvalid = -1
};

struct cudaKernelNodeParamsV2 {
    union {
        void *func;
        cudaKernel_t kern;
        cudaFunction_t cuFunc;
    };
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    cudaExecutionContext_t ctx;
    enum cudaKernelFunctionType functionType;
};

struct cudaMemcpyNodeParams {
    int flags;
    int reserved;
    cudaExecutionContext_t ctx;
    struct cudaMemcpy3DParms copyParams;
};

struct cudaMemsetParamsV2 {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
    cudaExecutionContext_t ctx;
};

struct cudaHostNodeParamsV2 {
    cudaHostFn_t fn;
    void *userData;
    unsigned int syncMode;
    cudaExecutionContext_t ctx;
};

struct cudaChildGraphNodeParams {
    cudaGraph_t graph;
    enum cudaGraphChildGraphNodeOwnership ownership;
};

struct cudaEventRecordNodeParams {
    cudaEvent_t event;
    cudaExecutionContext_t ctx;
};

struct cudaEventWaitNodeParams {
    cudaEvent_t event;
};

/* The generic node description (256 bytes). Node kinds the CPU runtime does
 * not support (external semaphores, memory alloc/free, conditional, batched
 * copies) have no member here; their calls return cudaErrorNotSupported. */
struct cudaGraphNodeParams {
    enum cudaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParamsV2 kernel;
        struct cudaMemcpyNodeParams memcpy;
        struct cudaMemsetParamsV2 memset;
        struct cudaHostNodeParamsV2 host;
        struct cudaChildGraphNodeParams graph;
        struct cudaEventWaitNodeParams eventWait;
        struct cudaEventRecordNodeParams eventRecord;
    };
    long long reserved2;
};
typedef struct cudaGraphNodeParams cudaGraphNodeParams;

typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode;
    cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

typedef struct cudaGraphInstantiateParams_st {
    unsigned long long flags;
    cudaStream_t uploadStream;
    cudaGraphNode_t errNode_out;
    cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;

struct cudaMemLocation {
    enum cudaMemLocationType type;
    union {
        int id;
        struct {
            unsigned char deviceId;
            unsigned char localityDomainId;
        } localized;
    };
};

struct cudaMemAccessDesc {
    struct cudaMemLocation location;
    enum cudaMemAccessFlags flags;
};

struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};

struct cudaMemcpy3DPeerParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    int srcDevice;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    int dstDevice;
    struct cudaExtent extent;
};

struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    enum cudaAccessProperty hitProp;
    enum cudaAccessProperty missProp;
};

typedef struct cudaLaunchMemSyncDomainMap_st {
    unsigned char default_;
    unsigned char remote;
} cudaLaunchMemSyncDomainMap;

typedef union cudaLaunchAttributeValue {
    char pad[64];
    struct cudaAccessPolicyWindow accessPolicyWindow;
    int cooperative;
    enum cudaSynchronizationPolicy syncPolicy;
    struct { unsigned int x, y, z; } clusterDim;
    enum cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
    int programmaticStreamSerializationAllowed;
    struct { cudaEvent_t event; int flags; int triggerAtBlockStart; } programmaticEvent;
    int priority;
    cudaLaunchMemSyncDomainMap memSyncDomainMap;
    cudaLaunchMemSyncDomain memSyncDomain;
    struct { unsigned int x, y, z; } preferredClusterDim;
    struct { cudaEvent_t event; int flags; } launchCompletionEvent;
    struct { int deviceUpdatable; cudaGraphDeviceNode_t devNode; } deviceUpdatableKernelNode;
    unsigned int sharedMemCarveout;
    unsigned int nvlinkUtilCentricScheduling;
    cudaLaunchAttributePortableClusterMode portableClusterSizeMode;
    cudaSharedMemoryMode sharedMemoryMode;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;

typedef cudaLaunchAttributeID cudaStreamAttrID;
typedef cudaLaunchAttributeID cudaKernelNodeAttrID;
typedef cudaLaunchAttributeValue cudaStreamAttrValue;
typedef cudaLaunchAttributeValue cudaKernelNodeAttrValue;

/* Stream and kernel-node attributes are launch attributes. */
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaStreamAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain
#define cudaStreamAttributePriority cudaLaunchAttributePriority
#define cudaKernelNodeAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaKernelNodeAttributeCooperative cudaLaunchAttributeCooperative
#define cudaKernelNodeAttributePriority cudaLaunchAttributePriority
#define cudaKernelNodeAttributeClusterDimension cudaLaunchAttributeClusterDimension
#define cudaKernelNodeAttributeClusterSchedulingPolicyPreference cudaLaunchAttributeClusterSchedulingPolicyPreference
#define cudaKernelNodeAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaKernelNodeAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain
#define cudaKernelNodeAttributePreferredSharedMemoryCarveout cudaLaunchAttributePreferredSharedMemoryCarveout
#define cudaKernelNodeAttributeDeviceUpdatableKernelNode cudaLaunchAttributeDeviceUpdatableKernelNode
#define cudaKernelNodeAttributeNvlinkUtilCentricScheduling cudaLaunchAttributeNvlinkUtilCentricScheduling

/* CUDA 13 replaced `device` with `cudaCpuDeviceId`'s location forms. */
#ifndef cudaCpuDeviceId
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
#endif

#endif
